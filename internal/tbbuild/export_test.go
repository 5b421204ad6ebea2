package tbbuild

// OnHeld sets the builder's test hook, called whenever it waits with work
// queued because it is paused. Set it before the builder starts.
func OnHeld(b *Builder, f func()) { b.onHeld = f }

// Stopped reports whether the builder's goroutine has ended and no child
// process of it is running: nothing of it can write any more.
func Stopped(b *Builder) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished == nil {
		return true
	}
	select {
	case <-b.finished:
		return b.current == nil || b.current.child == nil
	default:
		return false
	}
}
