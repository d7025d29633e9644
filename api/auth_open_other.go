//go:build !unix

package api

// openNonblock is 0 where opening a file cannot wait for a writer the Unix way.
const openNonblock = 0
