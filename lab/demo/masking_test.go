package demo

import (
	"context"
	"testing"
)

// TestMasking: least squares never answers the middle class (no training sample, no part of
// the plane), while the perceptron's K-class machine and Fisher's discriminant answer nearly
// all its samples.
func TestMasking(t *testing.T) {
	_, methods, err := maskingReport(context.Background(), maskingConfig{N: 30, Middle: 20, Noise: 0.7, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(methods) != 3 {
		t.Fatalf("%d methods", len(methods))
	}
	lsq := methods[0]
	if lsq.Name != "least squares" || lsq.Assigned[1] != 0 || lsq.Area[1] != 0 {
		t.Errorf("%s answers the middle class for %d samples, %.1f%% of the plane: want it masked", lsq.Name, lsq.Assigned[1], 100*lsq.Area[1])
	}
	for _, m := range methods[1:] {
		if m.Assigned[1] < 18 || m.Area[1] < 0.1 {
			t.Errorf("%s answers the middle class for %d of 20 samples, %.1f%% of the plane", m.Name, m.Assigned[1], 100*m.Area[1])
		}
	}
}
