package program

import "time"

// patience bounds a test's wait for what will happen: a loaded machine
// gets there late, and a test fails only when it never does.
const patience = 2 * time.Minute
