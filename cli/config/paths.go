package config

import (
	"os"
	"path/filepath"
)

// Paths are the files canopy reads and writes, after the XDG base
// directory spec: config in $XDG_CONFIG_HOME, logs and crash reports in
// $XDG_STATE_HOME, caches in $XDG_CACHE_HOME (each with the spec's default
// under $HOME when unset).
type Paths struct {
	Config string // config.yaml
	State  string // directory of the debug log and crash reports
	Log    string // the --debug log
	Cache  string // directory of caches
}

// PathsFrom builds the paths from an environment lookup, so tests can give
// their own.
func PathsFrom(getenv func(string) string) Paths {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	dir := func(env, fallback string) string {
		if d := getenv(env); filepath.IsAbs(d) {
			return filepath.Join(d, "canopy")
		}
		return filepath.Join(home, fallback, "canopy")
	}
	state := dir("XDG_STATE_HOME", filepath.Join(".local", "state"))
	return Paths{
		Config: filepath.Join(dir("XDG_CONFIG_HOME", ".config"), "config.yaml"),
		State:  state,
		Log:    filepath.Join(state, "canopy.log"),
		Cache:  dir("XDG_CACHE_HOME", ".cache"),
	}
}

// DefaultPaths are the paths of this process's environment.
func DefaultPaths() Paths { return PathsFrom(os.Getenv) }
