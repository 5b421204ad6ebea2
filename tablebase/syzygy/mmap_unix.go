//go:build unix

package syzygy

import (
	"os"
	"syscall"
)

// mapFile maps a table file read-only. unmap releases the mapping; it is
// nil when the file was read into memory instead, which happens where
// mapping fails (an empty file, a file system that cannot map).
func mapFile(path string) (data []byte, unmap func() error, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if size := info.Size(); size > 0 && int64(int(size)) == size {
		data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
		if err == nil {
			return data, func() error { return syscall.Munmap(data) }, nil
		}
	}
	data, err = os.ReadFile(path)
	return data, nil, err
}
