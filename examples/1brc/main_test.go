package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRunAgreesWithThePlainLoop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "measurements.txt")
	require.NoError(t, generate(path, 50_000, 7))
	var out, log bytes.Buffer
	require.NoError(t, run(&out, &log, path))
	require.True(t, strings.HasPrefix(out.String(), "{st"), out.String()[:20])
	require.Equal(t, 413, strings.Count(out.String(), "="))
	require.Contains(t, log.String(), "413 stations")
}

func TestFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.txt")
	text := "Hamburg;12.0\nBulawayo;8.9\nPalembang;38.8\nHamburg;34.2\nSt. John's;-15.2\nHamburg;-0.1\n"
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	got, err := aggregate(path)
	require.NoError(t, err)
	require.Equal(t, "{Bulawayo=8.9/8.9/8.9, Hamburg=-0.1/15.4/34.2, Palembang=38.8/38.8/38.8, St. John's=-15.2/-15.2/-15.2}", format(got))
}

func TestEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.txt")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	got, err := aggregate(path)
	require.NoError(t, err)
	require.Equal(t, "{}", format(got))
}

func TestEmptyLinesAndCarriageReturns(t *testing.T) {
	for text, want := range map[string]string{
		"a;1.0\r\n\nb;2.0\n\r\n": "{a=1.0/1.0/1.0, b=2.0/2.0/2.0}",
		"\n\n":                   "{}",
		";-3.0\na;1.0\n\n;5.0\n": "{=-3.0/1.0/5.0, a=1.0/1.0/1.0}",
	} {
		path := filepath.Join(t.TempDir(), "m.txt")
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		got, err := aggregate(path)
		require.NoError(t, err)
		require.Equal(t, want, format(got), "%q", text)
		plain, err := aggregatePlain(path)
		require.NoError(t, err)
		require.Equal(t, want, format(plain), "%q", text)
	}
}

func TestMalformedLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.txt")
	require.NoError(t, os.WriteFile(path, []byte("a;1.0\nno separator\n"), 0o644))
	require.PanicsWithError(t, `no ';' in line "no separator"`, func() { aggregate(path) })
	_, err := aggregatePlain(path)
	require.EqualError(t, err, `no ';' in line "no separator"`)
}

func TestTenths(t *testing.T) {
	for s, want := range map[string]int64{"0.0": 0, "-0.1": -1, "12.3": 123, "-99.9": -999, "5.5": 55} {
		got, err := tenths([]byte(s))
		require.NoError(t, err, s)
		require.Equal(t, want, got, s)
	}
	for _, s := range []string{"", "-", "1", "12", "1.23", "a.b", "--1.0"} {
		_, err := tenths([]byte(s))
		require.Error(t, err, s)
	}
}
