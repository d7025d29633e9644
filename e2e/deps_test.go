package e2e

// The tests build and run the binary; importing what it is made of makes
// go test's cache key cover it, so a change to the product runs them again
// rather than reporting an earlier result "(cached)".
import (
	_ "canopy/cli"
	_ "canopy/cli/exit"
)
