package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"canopy/cli/exit"
	"canopy/files"
)

// profileFlags are --cpuprofile and --memprofile of the UI commands: a
// slow frame or a big heap seen in a real session can be looked at with
// `go tool pprof canopy FILE` without rebuilding anything.
type profileFlags struct {
	cpu, mem string
}

func (f *profileFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.cpu, "cpuprofile", "", "write a CPU profile of the session to `FILE` (for go tool pprof)")
	fs.StringVar(&f.mem, "memprofile", "", "write a heap profile to `FILE` when the session ends (for go tool pprof)")
}

// start begins the CPU profile, if asked for. stop ends it and writes the
// heap profile; it is never nil, and reports what it could not write.
func (f *profileFlags) start() (stop func() error, err error) {
	var cpu *os.File
	if f.cpu != "" {
		cpu, err = createProfile(f.cpu)
		if err != nil {
			return func() error { return nil }, fmt.Errorf("cpu profile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			_ = cpu.Close()
			return func() error { return nil }, fmt.Errorf("cpu profile: %w", err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				errs = append(errs, fmt.Errorf("cpu profile: %w", err))
			}
		}
		if f.mem != "" {
			errs = append(errs, writeHeapProfile(f.mem))
		}
		return errors.Join(errs...)
	}, nil
}

// writeHeapProfile writes the live heap as of a fresh GC (what the session
// holds, not what it has yet to collect).
func writeHeapProfile(path string) error {
	out, err := createProfile(path)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(out, 0); err != nil {
		_ = out.Close()
		return fmt.Errorf("heap profile: %w", err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	return nil
}

// profiled runs fn between start and stop of the profiles f asks for. A
// signal ends the wait for a profile file that cannot be opened (a FIFO
// nothing reads).
func (f *profileFlags) profiled(ctx context.Context, stderr io.Writer, name string, fn func() int) int {
	stop, err := exit.Step(ctx, f.start)
	if err != nil {
		return exit.Fail(ctx, stderr, name, "opening the profile", err, exit.Failure)
	}
	code := fn()
	if err := stop(); err != nil {
		exit.Sayf(stderr, "%s: %v", name, err)
		if code == exit.OK {
			code = exit.Failure
		}
	}
	return code
}

// createProfile opens a profile to write, as os.Create would, but never
// into what is not a regular file (a FIFO would block canopy) nor through
// a symbolic link.
func createProfile(path string) (*os.File, error) {
	return files.Open(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|files.NoFollow, 0o600)
}
