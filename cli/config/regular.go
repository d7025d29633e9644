package config

import (
	"errors"
	"fmt"

	"canopy/files"
)

// readRegular reads a regular file of at most limit bytes (files.Read: a
// FIFO or a device is refused without waiting).
func readRegular(path string, limit int64) ([]byte, error) {
	b, err := files.Read(path, limit)
	var large *files.TooLargeError
	if errors.As(err, &large) {
		return nil, fmt.Errorf("%w; a config file is a few lines", err)
	}
	return b, err
}
