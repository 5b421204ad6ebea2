// Package atomicfile writes a file so that a reader sees either the old
// file or the whole new one, never half of one: the contents go to a
// temporary file beside the path, which is synced, closed and renamed over
// it. Each temporary file has a unique name, so two writers of one path
// (two explorer workers saving the same statistics, two commands writing
// one weights file) never write into each other's file: the last rename
// wins, and either way the file is complete.
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes the file at path with the contents write produces and the
// permissions perm (set as given, not masked by the umask: the callers
// write data meant to be shared, such as a table directory). On any
// failure the temporary file is removed and a file already at path is left
// as it was.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	p, err := Create(path)
	if err != nil {
		return err
	}
	return p.Commit(perm, write)
}

// Pending is a file whose temporary file is made before its contents are
// known: a command that writes its result after hours of work makes it
// first, so that a directory it cannot write to fails at once instead of
// at the end.
type Pending struct {
	path string
	tmp  *os.File
	done bool // committed or discarded: the temporary file is gone or renamed
}

// Create makes the temporary file beside path (in the same directory, so
// the rename stays within one file system and is atomic).
func Create(path string) (*Pending, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &Pending{path: path, tmp: tmp}, nil
}

// errDone is Commit's answer once the file was committed or discarded: the
// temporary file it would write is gone.
var errDone = errors.New("atomicfile: file already committed or discarded")

// Commit writes the contents, sets perm, syncs the data to the disk (so a
// crash after the rename cannot leave an empty or partial file under the
// path) and renames the file into place. On failure the temporary file is
// removed. A Pending is committed once.
func (p *Pending) Commit(perm fs.FileMode, write func(io.Writer) error) error {
	if p.done {
		return errDone
	}
	p.done = true
	err := writeSynced(p.tmp, perm, write)
	if cerr := p.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p.tmp.Name(), p.path)
	}
	if err != nil {
		os.Remove(p.tmp.Name())
	}
	return err
}

// writeSynced writes the contents through a buffer (callers write in small
// pieces), sets perm and syncs the file.
func writeSynced(f *os.File, perm fs.FileMode, write func(io.Writer) error) error {
	w := bufio.NewWriter(f)
	if err := write(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	// CreateTemp makes the file private; the file gets the permissions
	// asked for.
	if err := f.Chmod(perm); err != nil {
		return err
	}
	return f.Sync()
}

// Discard removes the temporary file unless Commit already put it in
// place or removed it: deferred after Create, it cleans up every path
// that does not commit.
func (p *Pending) Discard() {
	if p.done {
		return
	}
	p.done = true
	p.tmp.Close()
	os.Remove(p.tmp.Name())
}
