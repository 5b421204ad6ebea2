package sysmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// physical returns the machine's memory in bytes.
func physical() (uint64, bool) {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil {
		return 0, false
	}
	return uint64(info.Totalram) * uint64(info.Unit), true
}

// peakResident returns the process's peak resident set in bytes
// (getrusage's maxrss, which Linux counts in KiB).
func peakResident() (uint64, bool) {
	var use syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &use); err != nil {
		return 0, false
	}
	return uint64(use.Maxrss) << 10, true
}

// cpuTime returns the process's user and system time.
func cpuTime() (time.Duration, bool) {
	var use syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &use); err != nil {
		return 0, false
	}
	return time.Duration(use.Utime.Nano() + use.Stime.Nano()), true
}

// available returns the memory the process can get now, in bytes: what
// the system can give out without swapping (MemAvailable in
// /proc/meminfo), and no more than the address space its limit leaves.
func available() (uint64, bool) {
	avail, ok := meminfoAvailable()
	if room, limited := addressSpaceLeft(); limited && (!ok || room < avail) {
		return room, true
	}
	return avail, ok
}

func meminfoAvailable() (uint64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.ParseUint(fields[1], 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// addressSpaceLeft returns what RLIMIT_AS leaves beyond the address space
// the process already has (/proc/self/statm's first field), if limited.
func addressSpaceLeft() (uint64, bool) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil || lim.Cur == ^uint64(0) {
		return 0, false
	}
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return 0, false
	}
	pages, err := strconv.ParseUint(fields[0], 10, 64)
	if err != nil {
		return 0, false
	}
	used := pages * uint64(os.Getpagesize())
	if used >= lim.Cur {
		return 0, true
	}
	return lim.Cur - used, true
}

// AdviseHugePages asks the kernel to back b with transparent huge pages.
// An error (a kernel built without them, or a mode of "never") leaves b
// on ordinary pages, which is correct, only slower.
func AdviseHugePages(b []byte) {
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
