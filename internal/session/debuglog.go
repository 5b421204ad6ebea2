package session

import (
	"fmt"
	"os"
	"sync"
)

// debugLog copies a protocol's conversation to a file, the Debug Log File
// option (Stockfish's and Fairy-Stockfish's): every line read, written
// ">> line", and every line written, "<< line", in the order they pass,
// appended to what the file held. A write that fails closes the log and
// says so once; the conversation goes on without it.
type debugLog struct {
	mu   sync.Mutex
	file *os.File
	// onFail is told, once, why the log stopped.
	onFail func(error)
}

// open starts logging to path (appending), ending a log to another
// file; an empty path ends logging.
func (d *debugLog) open(path string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closeLocked()
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	d.file = f
	return nil
}

// read logs a line read from the protocol's input.
func (d *debugLog) read(line string) { d.write(">> ", line) }

// wrote logs a line written to the protocol's output.
func (d *debugLog) wrote(line string) { d.write("<< ", line) }

func (d *debugLog) write(prefix, line string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.file == nil {
		return
	}
	if _, err := fmt.Fprintf(d.file, "%s%s\n", prefix, line); err != nil {
		name := d.file.Name()
		d.closeLocked()
		if d.onFail != nil {
			go d.onFail(fmt.Errorf("debug log %s: %w; logging stopped", name, err)) // not under mu: it writes a line
		}
	}
}

// close ends logging.
func (d *debugLog) close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closeLocked()
}

func (d *debugLog) closeLocked() {
	if d.file != nil {
		d.file.Close()
		d.file = nil
	}
}
