// Command xurls_find prints every URL that the xurls library
// (mvdan.cc/xurls/v2, Debian's golang-mvdan-xurls-dev) finds in FILE, one
// per line, for benches/compare.sh.
//
// Usage: xurls_find [-relaxed] FILE
//
// Debian bookworm ships the xurls library but not its command, so
// compare.sh builds this with Debian's Go. By default it uses
// xurls.Strict() (URLs with a scheme, like the xurls command without -r);
// -relaxed uses xurls.Relaxed() (also bare domains such as example.com).
// The xurls command matches line by line; so does this, with lines of
// any length.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"mvdan.cc/xurls/v2"
)

func main() {
	args := os.Args[1:]
	re := xurls.Strict()
	if len(args) > 0 && args[0] == "-relaxed" {
		re = xurls.Relaxed()
		args = args[1:]
	}
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: xurls_find [-relaxed] FILE")
		os.Exit(2)
	}
	f, err := os.Open(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	in := bufio.NewReaderSize(f, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer out.Flush()
	for {
		line, err := in.ReadBytes('\n')
		for _, m := range re.FindAll(line, -1) {
			out.Write(m)
			out.WriteByte('\n')
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
}
