//go:build !unix

package dataset

import "os"

// lockFile does nothing where flock is not offered: one run a file is
// then the user's to keep.
func lockFile(*os.File) error { return nil }
