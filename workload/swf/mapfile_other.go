//go:build !unix

package swf

import (
	"errors"
	"os"
)

// mapsFiles tells whether ReadParts maps files on this system.
const mapsFiles = false

// mapFile is not offered on this system: ReadParts reads the file instead.
func mapFile(*os.File, int64) ([]byte, func(), error) {
	return nil, nil, errors.ErrUnsupported
}
