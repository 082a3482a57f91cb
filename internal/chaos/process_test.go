//go:build chaos

package chaos

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A CLI run is a process group of its own (Setpgid): the CLI leads it and the provider
// plugins it starts join it. Signalling the group is what Ctrl-C in a terminal does;
// signalling the leader alone is a crash or an OOM kill of the CLI, which leaves the
// provider behind.

// runTimeout bounds one CLI run: a hung apply must fail its test, not eat the whole budget.
const runTimeout = 2 * time.Minute

// proc is one started process group.
type proc struct {
	cmd     *exec.Cmd
	logPath string
	started time.Time
	done    chan struct{} // closed once the leader exited and the group was cleaned up
	res     procResult    // valid after done
}

// procResult is how a run ended.
type procResult struct {
	exit      int            // exit status; -1 when a signal ended the leader
	signal    syscall.Signal // the signal that ended the leader, or 0
	leftovers bool           // processes of the group outlived the leader and were killed
	output    string         // stdout and stderr, interleaved as written
	wall      time.Duration
}

// startProc starts path with args in dir, with exactly env, its output into logPath. The
// group is killed when the run outlives runTimeout or the test.
func startProc(t *testing.T, dir, logPath string, env []string, path string, args ...string) *proc {
	t.Helper()
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), runTimeout)
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdout, cmd.Stderr = logFile, logFile // one file: the CLI's lines stay in order
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid, syscall.SIGKILL) }
	p := &proc{cmd: cmd, logPath: logPath, started: time.Now(), done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		cancel()
		_ = logFile.Close()
		t.Fatalf("starting %s: %v", path, err)
	}
	go func() {
		defer close(p.done)
		defer cancel()
		_ = cmd.Wait()
		_ = logFile.Close()
		p.res = p.result()
	}()
	// Never leave a group running past the test, whatever failed in between.
	t.Cleanup(func() {
		_ = p.signalGroup(syscall.SIGKILL)
		<-p.done
	})
	return p
}

// result reads how the run ended, and kills what the leader left behind in its group: a
// provider plugin whose CLI was killed would otherwise keep running, and could keep
// writing to the manager while the next step looks at it. After SIGKILL that happens at
// once: after a crash nobody stops the plugins.
func (p *proc) result() procResult {
	r := procResult{exit: p.cmd.ProcessState.ExitCode(), wall: time.Since(p.started)}
	if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		r.signal = ws.Signal()
	}
	if r.signal != syscall.SIGKILL {
		// A leader that could clean up stops its plugins as it exits; give them a moment.
		waitGroupGone(p.cmd.Process.Pid, 2*time.Second)
	}
	if groupAlive(p.cmd.Process.Pid) {
		r.leftovers = true
		_ = killGroup(p.cmd.Process.Pid, syscall.SIGKILL)
		waitGroupGone(p.cmd.Process.Pid, 5*time.Second)
	}
	out, err := os.ReadFile(p.logPath)
	if err != nil {
		out = []byte("(output unreadable: " + err.Error() + ")")
	}
	r.output = string(out)
	return r
}

// signalGroup sends sig to every process of the group, as a terminal's Ctrl-C does.
func (p *proc) signalGroup(sig syscall.Signal) error {
	return killGroup(p.cmd.Process.Pid, sig)
}

// signalLeader sends sig to the CLI alone.
func (p *proc) signalLeader(sig syscall.Signal) error {
	return p.cmd.Process.Signal(sig)
}

// wait blocks until the run ended and its group is gone.
func (p *proc) wait() procResult {
	<-p.done
	return p.res
}

// killGroup signals the group that pgid leads; a group already gone is no error.
func killGroup(pgid int, sig syscall.Signal) error {
	if err := syscall.Kill(-pgid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// groupAlive reports whether a process other than a zombie is left in the group. Signal 0
// alone does not tell, as it succeeds on zombies, which an init that does not reap (as in
// some containers) keeps around.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true // no /proc: trust the signal
	}
	for _, e := range entries {
		if stat, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil && liveMember(string(stat), pgid) {
			return true
		}
	}
	return false
}

// liveMember reads a /proc/<pid>/stat line: "pid (comm) state ppid pgrp ...". The command
// may contain spaces and parentheses, so the fields are counted from the last ')'.
func liveMember(stat string, pgid int) bool {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(stat[i+1:])
	return len(f) >= 3 && f[0] != "Z" && f[0] != "X" && f[2] == strconv.Itoa(pgid)
}

// waitGroupGone polls until no live process is left in the group or the time is up.
func waitGroupGone(pgid int, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for groupAlive(pgid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}
