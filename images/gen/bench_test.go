package gen

import "testing"

func BenchmarkGenerate(b *testing.B) {
	s, err := Parse("squares-circles,n=1000")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Generate(s); err != nil {
			b.Fatal(err)
		}
	}
}
