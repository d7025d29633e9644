package api_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"canopy/api"
)

// canned is a RoundTripper that answers every request with one response,
// so that fuzzing the decoders needs no server.
type canned struct {
	status      int
	contentType string
	retryAfter  string
	body        []byte
}

func (c canned) RoundTrip(r *http.Request) (*http.Response, error) {
	h := http.Header{}
	if c.contentType != "" {
		h.Set("Content-Type", c.contentType)
	}
	if c.retryAfter != "" {
		h.Set("Retry-After", c.retryAfter)
	}
	return &http.Response{StatusCode: c.status, Header: h, Request: r,
		Body: io.NopCloser(strings.NewReader(string(c.body))), ContentLength: int64(len(c.body))}, nil
}

func cannedClient(t *testing.T, c canned) *api.Client {
	t.Helper()
	return newClient(t, "https://api.invalid", api.Options{Retry: api.NoRetry(), TokenSource: static(adminToken),
		HTTPClient: &http.Client{Transport: c}})
}

// FuzzErrorDecoding feeds arbitrary error answers to the client: it never
// panics, always returns an *api.Error with the HTTP status, a message, a
// non-negative Retry-After, and never the token.
func FuzzErrorDecoding(f *testing.F) {
	f.Add(400, "application/json", "", []byte(`{"code":3,"message":"Invalid argument: name","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"name"}]}]}`))
	f.Add(400, "application/json", "", []byte(`{"code":9,"details":[{"@type":"type.googleapis.com/google.rpc.PreconditionFailure","violations":[{"type":"RESOURCE_NOT_EMPTY"}]},null,{"@type":7}]}`))
	f.Add(404, "application/json", "", []byte(`{"code":5,"details":[{"@type":"google.rpc.ResourceInfo","resourceName":{}}]}`))
	f.Add(429, "", "99999999999999999", []byte(``))
	f.Add(503, "text/plain", "Wed, 21 Oct 2015 07:28:00 GMT", []byte("busy"))
	f.Add(502, "text/html; charset=\"", "-1", []byte("<html>bad gateway</html>"))
	f.Add(401, "application/json", "1", []byte(`{"code":-16,"message":"`+adminToken+`"}`))
	f.Add(500, "application/json", "", []byte(`{"code":1e999}`))
	f.Add(401, "", "", []byte("0"+adminToken+"x")) // glued to other text, in a body that is no status
	f.Fuzz(func(t *testing.T, status int, contentType, retryAfter string, body []byte) {
		status = 300 + int(uint(status)%300) // a non-2xx answer (3xx without Location is not followed)
		c := cannedClient(t, canned{status: status, contentType: contentType, retryAfter: retryAfter, body: body})
		_, err := c.GetRepo(t.Context(), "org/repo")
		apiErr, ok := api.AsError(err)
		if !ok {
			t.Fatalf("HTTP %d: err = %v (%T), want an *api.Error", status, err, err)
		}
		if apiErr.HTTPStatus != status || err.Error() == "" || apiErr.RetryAfter < 0 {
			t.Fatalf("HTTP %d: %+v", status, apiErr)
		}
		if shown, _ := json.Marshal(apiErr.Status); strings.Contains(err.Error()+string(shown), adminToken) {
			t.Fatalf("the error shows the token: %v %s", err, shown)
		}
		// A status with a valid code keeps it, whatever its details hold.
		var st struct {
			Code int32 `json:"code"`
		}
		if json.Unmarshal(body, &st) == nil && st.Code > 0 && st.Code <= 16 && apiErr.Code != api.Code(st.Code) {
			t.Fatalf("body %q: code %v, want %d", body, apiErr.Code, st.Code)
		}
		_ = apiErr.FieldViolations()
		_ = apiErr.PreconditionViolations()
		_ = apiErr.ResourceInfo()
		_ = apiErr.ErrorInfo()
		_ = api.Retryable(err)
	})
}

// FuzzListDecoding feeds arbitrary 200 bodies to a List: it never panics,
// and either decodes or fails with an *api.DecodeError.
func FuzzListDecoding(f *testing.F) {
	f.Add([]byte(`{"tags":[{"uid":"o/r/t","name":"latest","digest":"sha256:00","deprecated":true,"createTime":"2026-01-28T12:54:21.189Z"}],"nextPageToken":"abc","totalCount":"1","skipped":0}`))
	f.Add([]byte(`{"tags":null,"totalCount":12,"skipped":"3"}`))
	f.Add([]byte(`{"tags":[{"updateTime":""}],"totalCount":"99999999999999999999"}`))
	f.Add([]byte(`{"tags":[{"createTime":"yesterday"}]}`))
	f.Add([]byte(`{"tags":[],"nextPageToken":7}`))
	f.Add([]byte(`{"tags":[{"uid":"a"`))
	f.Add([]byte(`null`))
	f.Add([]byte(``))
	f.Add([]byte(`[]`))
	// Shapes of a page read as it arrives (issue 19): more items than a
	// page holds, whole or cut, with strings that look like structure past
	// the limit; repeated keys; a list that is not one; data after the page.
	many := `{"tags":[{}` + strings.Repeat(`,{}`, api.MaxPageSize)
	f.Add([]byte(many + `]}`))
	f.Add([]byte(many))
	f.Add([]byte(many + `,{"name":"],\"{"},[{"a":"}"}]]}`))
	f.Add([]byte(`{"tags":[{}],"tags":null,"nextPageToken":"a","nextPageToken":null}`))
	f.Add([]byte(`{"tags":{}}`))
	f.Add([]byte(`{"tags":"x"}`))
	f.Add([]byte(`{"tags":[[]]}`))
	f.Add([]byte(`{"tags":[]} {}`))
	f.Add([]byte(`{"other":[` + strings.Repeat(`{},`, 300) + `{}],"tags":[]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		c := cannedClient(t, canned{status: 200, contentType: "application/json", body: body})
		p, err := c.ListTags(t.Context(), api.ListOptions{})
		if err != nil {
			var de *api.DecodeError
			if !errors.As(err, &de) || de.Error() == "" {
				t.Fatalf("err = %v (%T), want an *api.DecodeError", err, err)
			}
			var over *api.PageOverflowError
			if errors.As(err, &over) && (over.Held <= over.Allowed || over.Allowed != api.MaxPageSize) {
				t.Fatalf("overflow %+v: no more than allowed", *over)
			}
			return
		}
		if p == nil {
			t.Fatal("no page and no error")
		}
		if len(p.Items) > api.MaxPageSize {
			t.Fatalf("a page of %d items when none were asked", len(p.Items))
		}
		_ = p.Last()
	})
}

// FuzzEscapePath: the escaped path keeps every "/" and nothing else that
// would change the path's meaning; unescaping each segment gives back the
// segments of the input.
func FuzzEscapePath(f *testing.F) {
	for _, s := range []string{"", "/", "a/b", "8707a01d6329783f07df1bd4a477b564aef8fc52/2ac9b0de70e3c6b6",
		"a b/c%d?e#f", "../..", "ü/\x00/\xff", "sha256:abc/size", "%2F", "a;b=c/d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		checkUIDRequest(t, p)
		esc := api.EscapePath(p)
		for i := 0; i < len(esc); i++ {
			if b := esc[i]; b <= ' ' || b >= 0x7f || b == '?' || b == '#' {
				t.Fatalf("EscapePath(%q) = %q keeps %q, which ends or breaks a path", p, esc, b)
			}
		}
		got, want := strings.Split(esc, "/"), strings.Split(p, "/")
		if len(got) != len(want) {
			t.Fatalf("EscapePath(%q) = %q: %d segments, want %d", p, esc, len(got), len(want))
		}
		for i, seg := range got {
			back, err := url.PathUnescape(seg)
			if err != nil || back != want[i] {
				t.Fatalf("EscapePath(%q) = %q: segment %d unescapes to %q (%v), want %q", p, esc, i, back, err, want[i])
			}
		}
	})
}

// checkUIDRequest: a call with uid p is either refused with ErrInvalidUID,
// without a request, when a segment is empty, "." or "..", or sent with a
// path that nothing would resolve differently: its segments, unescaped,
// are the prefix's and p's, with no dot segment among them.
func checkUIDRequest(t *testing.T, p string) {
	var sent []*http.Request
	c := newClient(t, "http://api.invalid", api.Options{Retry: api.NoRetry(),
		HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			sent = append(sent, r)
			return &http.Response{StatusCode: 200, Request: r, Body: io.NopCloser(strings.NewReader("{}"))}, nil
		})}})
	err := c.DeleteRepo(t.Context(), p)
	bad := false
	for _, seg := range strings.Split(p, "/") {
		bad = bad || seg == "" || seg == "." || seg == ".."
	}
	if bad {
		if !errors.Is(err, api.ErrInvalidUID) || len(sent) != 0 {
			t.Fatalf("DeleteRepo(%q): %v and %d requests, want ErrInvalidUID and none", p, err, len(sent))
		}
		return
	}
	if err != nil || len(sent) != 1 {
		t.Fatalf("DeleteRepo(%q): %v and %d requests", p, err, len(sent))
	}
	segs := strings.Split(strings.TrimPrefix(sent[0].URL.EscapedPath(), "/registry/v2/repos/"), "/")
	want := strings.Split(p, "/")
	if len(segs) != len(want) {
		t.Fatalf("DeleteRepo(%q) sent %q", p, sent[0].URL.EscapedPath())
	}
	for i, s := range segs {
		back, err := url.PathUnescape(s)
		if err != nil || back != want[i] || s == "." || s == ".." {
			t.Fatalf("DeleteRepo(%q) sent %q: segment %d is %q", p, sent[0].URL.EscapedPath(), i, s)
		}
	}
}
