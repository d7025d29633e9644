package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"canopy/api"
	"canopy/api/emulator"
)

// listEnv serves a small emulator and returns an environment that points
// canopy at it with its admin token.
func listEnv(t *testing.T) (func(string) string, *emulator.Server) {
	t.Helper()
	srv, err := emulator.New(emulator.Options{Seed: 1, AdminToken: "list-token"})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return env(t, map[string]string{"CANOPY_API_URL": hs.URL, "CANOPY_TOKEN": "list-token", "CANOPY_ORG": "acme.example"}), srv
}

func list(t *testing.T, getenv func(string) string, args ...string) (string, string, int) {
	t.Helper()
	var out, errs bytes.Buffer
	code := runList(t.Context(), args, getenv, &out, &errs)
	return out.String(), errs.String(), code
}

func TestListReposAsTableAndJSON(t *testing.T) {
	getenv, _ := listEnv(t)
	out, errs, code := list(t, getenv, "repos")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !regexp.MustCompile(`^NAME +TIER +DESCRIPTION +UPDATED +CREATED$`).MatchString(lines[0]) || len(lines) != 64 {
		t.Errorf("table: %d lines, header %q", len(lines), lines[0])
	}
	if !regexp.MustCompile(`(?m)^alertmanager +application +Prometheus Alertmanager\. +\S+ +\S+$`).MatchString(out) {
		t.Errorf("no alertmanager row as the UI shows it:\n%s", out)
	}

	// JSON, with a small page size: the same 63 repos, walked in pages.
	out, errs, code = list(t, getenv, "repos", "-o", "json", "--page-size", "10")
	var repos []api.Repo
	if err := json.Unmarshal([]byte(out), &repos); code != 0 || err != nil || len(repos) != 63 {
		t.Fatalf("json: exit %d, %v, %d repos; %s", code, err, len(repos), errs)
	}
	if repos[0].UID == "" || repos[0].Name == "" {
		t.Errorf("repo without uid or name: %+v", repos[0])
	}
}

func TestListFiltersAsTheUIDoes(t *testing.T) {
	getenv, _ := listEnv(t)
	out, _, code := list(t, getenv, "repos", "--filter", "ngx")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) < 2 || !strings.HasPrefix(lines[1], "nginx") {
		t.Errorf("--filter ngx: exit %d\n%s", code, out)
	}
	out, _, _ = list(t, getenv, "tags", "--repo", "python", "-o", "json")
	var tags []api.Tag
	if err := json.Unmarshal([]byte(out), &tags); err != nil || len(tags) == 0 {
		t.Fatalf("tags of python: %v, %d", err, len(tags))
	}
	for _, tag := range tags {
		if tag.Digest == "" {
			t.Errorf("tag without digest: %+v", tag)
		}
	}
	out, _, _ = list(t, getenv, "tags", "--filter", "latest")
	if !regexp.MustCompile(`(?m)^TAG +REPO +DIGEST +STATUS`).MatchString(out) || !regexp.MustCompile(`(?m)^latest +python `).MatchString(out) {
		t.Errorf("org tags lack the REPO column or python:latest:\n%.600s", out)
	}
}

func TestListErrors(t *testing.T) {
	getenv, _ := listEnv(t)
	if _, errs, code := list(t, getenv, "widgets"); code != exitUsage || !strings.Contains(errs, `no collection "widgets"`) {
		t.Errorf("unknown kind: %d %q", code, errs)
	}
	if _, errs, code := list(t, getenv, "repos", "-o", "xml"); code != exitUsage || !strings.Contains(errs, "want table or json") {
		t.Errorf("bad -o: %d %q", code, errs)
	}
	if _, errs, code := list(t, getenv, "tags", "--repo", "nope"); code != exitFailure || !strings.Contains(errs, `no repo named "nope"`) {
		t.Errorf("unknown repo: %d %q", code, errs)
	}
	down := env(t, map[string]string{"CANOPY_API_URL": "http://127.0.0.1:1", "CANOPY_TOKEN": "x"})
	if _, errs, code := list(t, down, "repos"); code != exitNoServer || strings.Contains(errs, "goroutine") {
		t.Errorf("unreachable: %d %q", code, errs)
	}
	bad := env(t, map[string]string{"CANOPY_API_URL": getenv("CANOPY_API_URL"), "CANOPY_TOKEN": "wrong"})
	if _, errs, code := list(t, bad, "repos"); code != exitFailure || strings.Contains(errs, "wrong") {
		t.Errorf("refused token: %d %q (the token must not be printed)", code, errs)
	}
}

func TestListAsksWhichOrganization(t *testing.T) {
	getenv, srv := listEnv(t)
	several := func(k string) string {
		if k == "CANOPY_ORG" {
			return ""
		}
		return getenv(k)
	}
	if _, errs, code := list(t, several, "repos"); code != exitFailure || !strings.Contains(errs, "choose one with --org") || !strings.Contains(errs, "acme.example (") {
		t.Errorf("several organizations: %d %q", code, errs)
	}
	if out, errs, code := list(t, several, "repos", "--org", srv.OrgUID()); code != 0 || !strings.Contains(out, "alertmanager") {
		t.Errorf("--org uid: %d %q", code, errs)
	}
	if _, errs, code := list(t, several, "repos", "--org", "initech"); code != exitFailure || !strings.Contains(errs, `no organization "initech"`) {
		t.Errorf("unknown org: %d %q", code, errs)
	}
}
