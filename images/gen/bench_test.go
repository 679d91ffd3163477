package gen

import "testing"

func BenchmarkGenerate(b *testing.B) {
	s, _ := Parse("squares-circles,n=1000")
	for b.Loop() {
		if _, err := Generate(s); err != nil {
			b.Fatal(err)
		}
	}
}
