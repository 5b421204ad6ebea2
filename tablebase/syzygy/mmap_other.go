//go:build !unix

package syzygy

import "os"

// mapFile reads a table file whole: this system has no mapping the
// package uses. unmap is nil.
func mapFile(path string) (data []byte, unmap func() error, err error) {
	data, err = os.ReadFile(path)
	return data, nil, err
}
