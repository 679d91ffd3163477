package lab

import (
	"context"
	"runtime"
	"sync"
)

// Parallel runs job(ctx, i) for i = 0..n-1 on up to workers goroutines (0 means one per core)
// and returns the results in job order. Jobs must not share random sources or machines: each
// gets its own index to seed from, so the results do not depend on scheduling. The first error
// (or ctx's end) stops the jobs not yet started and is returned; done, if not nil, is called
// (from the workers, one at a time) after each job that finishes.
func Parallel[T any](ctx context.Context, n, workers int, done func(i int), job func(ctx context.Context, i int) (T, error)) ([]T, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([]T, n)
	var (
		mu       sync.Mutex
		next     int
		firstErr error
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n || ctx.Err() != nil {
					return
				}
				v, err := job(ctx, i)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
						cancel()
					}
				} else {
					out[i] = v
					if done != nil {
						done(i)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
