package hwapi

import "sync"

// Subscription is one listener of a Broker.
type Subscription struct {
	C       <-chan Event
	c       chan Event
	dropped int
}

// Broker fans events out to subscribers. A subscriber that does not keep up loses events
// (counted), never blocks the publisher. It is safe for concurrent use.
type Broker struct {
	mu     sync.Mutex
	subs   map[*Subscription]bool
	closed bool
}

// NewBroker returns a broker with no subscriber.
func NewBroker() *Broker { return &Broker{subs: map[*Subscription]bool{}} }

// Subscribe returns a new subscription, buffered for 64 events.
func (b *Broker) Subscribe() *Subscription {
	c := make(chan Event, 64)
	s := &Subscription{C: c, c: c}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		close(c)
		return s
	}
	b.subs[s] = true
	return s
}

// Unsubscribe ends a subscription.
func (b *Broker) Unsubscribe(s *Subscription) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.subs[s] {
		delete(b.subs, s)
		close(s.c)
	}
}

// Publish sends e to every subscriber that has room for it.
func (b *Broker) Publish(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		select {
		case s.c <- e:
		default:
			s.dropped++
		}
	}
}

// Close ends every subscription (their channels close) and refuses new ones.
func (b *Broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for s := range b.subs {
		delete(b.subs, s)
		close(s.c)
	}
}
