//go:build race

package api_test

// raceSlowdown scales time limits: the race detector makes byte-by-byte work several times slower.
const raceSlowdown = 5
