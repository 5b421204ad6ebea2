// Package smallfile reads files that must be small (variant files, weights
// files) without trusting their size: a wrong path such as /dev/zero or a
// disk image is refused after limit bytes instead of filling the memory.
package smallfile

import (
	"fmt"
	"io"
	"os"
)

// Read reads the file at path if it holds at most limit bytes; what
// names the kind of file in the error ("a variant file").
func Read(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	switch {
	case err != nil:
		return nil, err
	case int64(len(data)) > limit:
		return nil, fmt.Errorf("%s: more than %d KiB: not %s", path, limit>>10, what)
	}
	return data, nil
}
