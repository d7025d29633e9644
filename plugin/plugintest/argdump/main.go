// Command argdump is the program plugin tests run: it appends its
// arguments as one JSON array line to the file $ARGDUMP names, says how
// many it got, and exits with $ARGDUMP_EXIT (0 when unset).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

func main() {
	line, err := json.Marshal(os.Args[1:])
	if err == nil {
		var f *os.File
		if f, err = os.OpenFile(os.Getenv("ARGDUMP"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			_, err = f.Write(append(line, '\n'))
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "argdump:", err)
		os.Exit(3)
	}
	fmt.Printf("argdump: %d args\n", len(os.Args)-1)
	code, _ := strconv.Atoi(os.Getenv("ARGDUMP_EXIT"))
	os.Exit(code)
}
