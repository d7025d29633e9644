// Command fakeeditor is the editor readme tests run as $EDITOR: it edits
// the file it is given (its last argument) as its flags say, after
// checking that nobody else may read it, and records the file's path.
//
//	fakeeditor [-append TEXT] [-replace OLD -with NEW] [-exit N] [-record FILE] FILE
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	appendText := flag.String("append", "", "text to add at the end")
	replace := flag.String("replace", "", "text to replace (once)")
	with := flag.String("with", "", "what replaces it")
	code := flag.Int("exit", 0, "exit status, after editing")
	record := flag.String("record", "", "file to append the edited file's path to")
	flag.Parse()
	if flag.NArg() != 1 {
		fail("one file to edit, got %q", flag.Args())
	}
	file := flag.Arg(0)
	for _, p := range []struct {
		path string
		most os.FileMode
	}{{file, 0o600}, {filepath.Dir(file), 0o700}} {
		fi, err := os.Stat(p.path)
		if err != nil {
			fail("%v", err)
		}
		if fi.Mode().Perm()&^p.most != 0 {
			fail("%s is %v: others may read it", p.path, fi.Mode().Perm())
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		fail("%v", err)
	}
	text := string(b)
	if *replace != "" {
		if !strings.Contains(text, *replace) {
			fail("%q is not in the file", *replace)
		}
		text = strings.Replace(text, *replace, *with, 1)
	}
	text += *appendText
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		fail("%v", err)
	}
	if *record != "" {
		f, err := os.OpenFile(*record, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			fail("%v", err)
		}
		fmt.Fprintln(f, file)
		f.Close()
	}
	fmt.Printf("fakeeditor: edited %s\n", filepath.Base(file))
	os.Exit(*code)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "fakeeditor: "+format+"\n", args...)
	os.Exit(3)
}
