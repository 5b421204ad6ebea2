package search

// TestMode names a set of test switches for the external tests.
type TestMode struct{ Pure, ExactDepthTT, NoTT, DetailAtOnce bool }

// NewForTest returns a searcher with the test switches of mode on.
func NewForTest(opts Options, mode TestMode) *Searcher {
	opts.test = testSwitches{pure: mode.Pure, exactDepthTT: mode.ExactDepthTT, noTT: mode.NoTT, detailAtOnce: mode.DetailAtOnce}
	return New(opts)
}
