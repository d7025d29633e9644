package ui

import (
	"strings"
	"testing"

	"canopy/views"
)

var copyDigest = "sha256:" + strings.Repeat("0a", 32)

// copied runs views.Copy's command and the shell's check of what it asks:
// the text copied, or the flash that refused.
func copied(t *testing.T, text, what string) (views.CopyMsg, string) {
	t.Helper()
	switch msg := views.Copy(text, what)().(type) {
	case views.CopyMsg:
		if err := checkCopy(msg.Text, msg.What); err != nil {
			return views.CopyMsg{}, "not copied: " + err.Error()
		}
		return msg, ""
	case views.FlashMsg:
		if !msg.Error {
			t.Fatalf("Copy(%q) flashed %q as information", text, msg.Text)
		}
		return views.CopyMsg{}, msg.Text
	default:
		t.Fatalf("Copy(%q) sent %T", text, msg)
	}
	return views.CopyMsg{}, ""
}

func TestCopyAcceptsWhatTheRegistryGives(t *testing.T) {
	for _, tc := range []struct{ text, what string }{
		{"8707a01d6329783f07df1bd4a477b564aef8fc52/0123456789abcdef", views.CopyUID},
		{copyDigest, views.CopyDigest},
		{"maven/ch.qos.logback:logback-classic", views.CopyUID}, // a library's uid is its coordinates
		{"cgr.dev/acme.example/nginx:1.27-r3@" + copyDigest, views.CopyPullRef},
		{"cgr.dev/acme.example/tools/go:latest@" + copyDigest, views.CopyPullRef},
		{"nginx:latest@" + copyDigest + "\ngo:1.23@" + copyDigest + "\n", "2 " + views.CopyRefLines},
		{`curl -X PATCH 'http://x/registry/v2/repos/a' --data '{"description":"new"}'`, "curl command"},
	} {
		if msg, refused := copied(t, tc.text, tc.what); refused != "" || msg.Text != tc.text {
			t.Errorf("Copy(%q, %q): refused %q", tc.text, tc.what, refused)
		}
	}
}

// TestCopyRefusesPastejacking: a server string that would end a bracketed
// paste, run a command, or read differently than it pastes never reaches
// the clipboard, and the status line says why.
func TestCopyRefusesPastejacking(t *testing.T) {
	jack := "x\x1b[201~\n;echo PWNED;\n"
	for _, tc := range []struct{ text, what, want string }{
		{"cgr.dev/acme.example/nginx:" + jack + "@" + copyDigest, views.CopyPullRef, "not copied: the tag name holds control characters"},
		{"cgr.dev/acme.example/ng\u202einx:latest@" + copyDigest, views.CopyPullRef, "not copied: the repo name holds control characters"},
		{"cgr.dev/acme" + jack + "/nginx:latest@" + copyDigest, views.CopyPullRef, "not copied: the organization name holds control characters"},
		{"cgr.dev/acme.example/nginx:latest@sha256:abc;rm -rf ~", views.CopyPullRef, "not copied: the digest \"sha256:abc;rm -rf ~\" is not a valid digest"},
		{"cgr.dev/acme.example/nginx:$(id)@" + copyDigest, views.CopyPullRef, `not copied: the tag name "$(id)" is not a valid tag name`},
		{"cgr.dev/Acme Corp/nginx:latest@" + copyDigest, views.CopyPullRef, `not copied: the organization name "Acme Corp" is not a valid organization name`},
		{copyDigest + jack, views.CopyDigest, "not copied: the digest holds control characters"},
		{"sha256:" + strings.Repeat("z", 64), views.CopyDigest, "is not a valid digest"},
		{"abc/def\u200b", views.CopyUID, "not copied: the uid holds control characters"},
		{"abc def", views.CopyUID, `not copied: the uid "abc def" is not a valid uid`},
		{"adm\u034fin", views.CopyUID, "holds control characters"},
		{"nginx:" + jack + "@" + copyDigest, "1 " + views.CopyRefLines, "not copied: the tag name holds control characters"},
		{"curl 'x' --data '{\"d\":\"\u202e\"}'", "curl command", "not copied: the curl command holds control characters"},
		{"a\x9bb", "note", "not copied: the note holds control characters"},
	} {
		msg, refused := copied(t, tc.text, tc.what)
		if msg.Text != "" || !strings.Contains(refused, tc.want) {
			t.Errorf("Copy(%q, %q) = %q, flash %q; want the flash %q", tc.text, tc.what, msg.Text, refused, tc.want)
		}
	}
	if _, refused := copied(t, "", views.CopyUID); refused != "nothing to copy here" {
		t.Errorf("an empty copy says %q", refused)
	}
}
