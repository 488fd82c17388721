// Command go-regexp-record records Go's verdict on regular expressions, as kube-apiserver
// compiles a CRD's `pattern` (regexp.Compile, RE2 syntax): it reads a JSON list of patterns
// and writes, for each, whether Go accepts it and Go's error message if not. With -names it
// writes the Unicode class names Go's regexp knows (\p{...}) instead.
//
//	go run tools/go-regexp-record/main.go core/tests/patterns/patterns.json core/tests/patterns/verdicts.json
//	go run tools/go-regexp-record/main.go -names core/src/check/re2/unicode_names.txt
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"unicode"
)

type verdict struct {
	Pattern  string `json:"pattern"`
	Accepted bool   `json:"accepted"`
	Error    string `json:"error,omitempty"`
}

type table struct {
	Go       string    `json:"go"`
	Command  string    `json:"command"`
	Verdicts []verdict `json:"verdicts"`
}

func main() {
	names := flag.Bool("names", false, "write the Unicode class names instead")
	flag.Parse()
	args := flag.Args()
	var err error
	switch {
	case *names && len(args) == 1:
		err = writeNames(args[0])
	case !*names && len(args) == 2:
		err = record(args[0], args[1])
	default:
		err = fmt.Errorf("usage: go-regexp-record PATTERNS.json VERDICTS.json | -names OUT.txt")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func record(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var patterns []string
	if err := json.Unmarshal(data, &patterns); err != nil {
		return fmt.Errorf("%s: a JSON list of strings: %w", in, err)
	}
	t := table{
		Go:      runtime.Version(),
		Command: "go run tools/go-regexp-record/main.go " + in + " " + out,
	}
	seen := map[string]bool{}
	for _, p := range patterns {
		if seen[p] {
			return fmt.Errorf("pattern %q is listed twice", p)
		}
		seen[p] = true
		v := verdict{Pattern: p, Accepted: true}
		if _, err := regexp.Compile(p); err != nil {
			v.Accepted = false
			v.Error = err.Error()
		}
		t.Verdicts = append(t.Verdicts, v)
	}
	return write(out, t)
}

// writeNames writes every name Go's unicode tables give a class (categories, their aliases,
// scripts, and regexp's own Any, Assigned, ASCII and LC), each checked with regexp.Compile.
// regexp matches a name loosely (case, `_`, `-` and spaces aside); kubegen does the same.
func writeNames(out string) error {
	all := []string{"Any", "Assigned", "ASCII", "LC"}
	for name := range unicode.Categories {
		all = append(all, name)
	}
	for name := range unicode.CategoryAliases {
		all = append(all, name)
	}
	for name := range unicode.Scripts {
		all = append(all, name)
	}
	sort.Strings(all)
	var kept []string
	for i, name := range all {
		if i > 0 && name == all[i-1] {
			continue
		}
		if _, err := regexp.Compile(`\p{` + name + `}`); err != nil {
			return fmt.Errorf("Go's regexp refuses \\p{%s}: %w", name, err)
		}
		kept = append(kept, name)
	}
	header := "# The names Go's regexp knows in \\p{...} (" + runtime.Version() +
		", Unicode " + unicode.Version + "), matched loosely: written by\n" +
		"# go run tools/go-regexp-record/main.go -names core/src/check/re2/unicode_names.txt\n"
	return os.WriteFile(out, []byte(header+strings.Join(kept, "\n")+"\n"), 0o644)
}

func write(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
