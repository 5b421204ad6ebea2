package explorer

// BuildsStarted returns how many generations the server has begun.
func BuildsStarted(s *Server) int {
	s.builds.mu.Lock()
	defer s.builds.mu.Unlock()
	return s.builds.started
}

// FillWork occupies every worker and waiting place of the server's work
// queue with jobs that wait for release.
func FillWork(s *Server) (release func()) {
	done := make(chan struct{})
	for range s.work.workers {
		started := make(chan struct{})
		s.work.submit(0, func() { close(started); <-done })
		<-started
	}
	for s.work.submit(0, func() { <-done }) {
	}
	return func() { close(done) }
}

// HoldWorkers occupies every worker of the server's work queue with a job
// that waits for release, leaving its waiting places free: requests queue
// their jobs, none runs.
func HoldWorkers(s *Server) (release func()) {
	done := make(chan struct{})
	for range s.work.workers {
		started := make(chan struct{})
		s.work.submit(0, func() { close(started); <-done })
		<-started
	}
	return func() { close(done) }
}

// WorkLoad returns the jobs waiting and running on the server's queue.
func WorkLoad(s *Server) (waiting, running int) { return s.work.load() }
