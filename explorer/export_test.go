package explorer

// BuildsStarted returns how many generations the server has begun.
func BuildsStarted(s *Server) int {
	s.builds.mu.Lock()
	defer s.builds.mu.Unlock()
	return s.builds.started
}
