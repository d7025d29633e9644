//go:build race

package emulator

// raceDetector: the race detector slows seeding the large size to minutes.
const raceDetector = true
