// sumdb_check verifies kifu's transparency-log output with Go's own
// golang.org/x/mod/sumdb/note and golang.org/x/mod/sumdb/tlog packages:
// an implementation of RFC 6962 and C2SP signed notes that kifu did not write.
//
// Usage (GOPATH mode, offline, against Debian's golang-golang-x-mod-dev):
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go run tests/peers/sumdb_check.go FILE.json
//
// FILE.json has the shape of fixtures/tlog/vectors.json; every field is
// optional except that proofs need the roots they are checked against:
//
//	leaves              hex leaf data, in log order (roots and tiles are then recomputed here)
//	roots               [{size, root (base64)}] claimed by kifu, compared with the recomputed ones
//	log_vkey            the log's verifier key; checkpoint and cosigned_checkpoint are opened with it
//	checkpoint          a signed checkpoint note; its root becomes the root of its size
//	witness_vkey        a cosigner's key (C2SP tlog-cosignature v1, type 0x04), checked on cosigned_checkpoint
//	inclusion           [{leaf_index, tree_size, hashes (base64), leaf (hex data, else leaves[leaf_index])}]
//	consistency         [{old_size, new_size, hashes (base64)}]
//	tiles               [{path, level, index, width, data (hex)}] for tiles_tree_size leaves "i as u32 BE"
//	server              a `kifu serve` URL: its /checkpoint is fetched and opened with log_vkey, and
//	                    tlog.TileHashReader reads the tree through its /tile/... endpoints; the
//	                    inclusion and consistency proofs of that size must equal Go's own from
//	                    the tiles, and every entry in /tile/entries must hash to its leaf
//
// It prints one line per kind of check and exits 1 at the first failure.
package main

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type rootJSON struct {
	Size int64  `json:"size"`
	Root string `json:"root"`
}

type inclusionJSON struct {
	LeafIndex int64    `json:"leaf_index"`
	TreeSize  int64    `json:"tree_size"`
	Hashes    []string `json:"hashes"`
	Leaf      *string  `json:"leaf"`
}

type consistencyJSON struct {
	OldSize int64    `json:"old_size"`
	NewSize int64    `json:"new_size"`
	Hashes  []string `json:"hashes"`
}

type tileJSON struct {
	Path  string `json:"path"`
	Level int    `json:"level"`
	Index int64  `json:"index"`
	Width int    `json:"width"`
	Data  string `json:"data"`
}

type input struct {
	Leaves             []string          `json:"leaves"`
	Roots              []rootJSON        `json:"roots"`
	LogVkey            string            `json:"log_vkey"`
	Checkpoint         string            `json:"checkpoint"`
	WitnessVkey        string            `json:"witness_vkey"`
	CosignedCheckpoint string            `json:"cosigned_checkpoint"`
	Inclusion          []inclusionJSON   `json:"inclusion"`
	Consistency        []consistencyJSON `json:"consistency"`
	TilesTreeSize      int64             `json:"tiles_tree_size"`
	Tiles              []tileJSON        `json:"tiles"`
	Server             string            `json:"server"`
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "FAIL: "+format+"\n", args...)
	os.Exit(1)
}

func hash64(s string) tlog.Hash {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != 32 {
		fail("%q is not a base64 SHA-256 hash", s)
	}
	var h tlog.Hash
	copy(h[:], b)
	return h
}

func hashes64(v []string) []tlog.Hash {
	out := make([]tlog.Hash, len(v))
	for i, s := range v {
		out[i] = hash64(s)
	}
	return out
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		fail("%q is not hex", s)
	}
	return b
}

// memTree is a log rebuilt by Go's tlog from the leaf data.
type memTree struct {
	stored []tlog.Hash
	size   int64
}

func (t *memTree) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x < 0 || x >= int64(len(t.stored)) {
			return nil, fmt.Errorf("no stored hash %d", x)
		}
		out[i] = t.stored[x]
	}
	return out, nil
}

func (t *memTree) add(data []byte) {
	hs, err := tlog.StoredHashes(t.size, data, t)
	if err != nil {
		fail("StoredHashes: %v", err)
	}
	t.stored = append(t.stored, hs...)
	t.size++
}

func (t *memTree) root(n int64) tlog.Hash {
	h, err := tlog.TreeHash(n, t)
	if err != nil {
		fail("TreeHash(%d): %v", n, err)
	}
	return h
}

// checkpointRoot parses the C2SP checkpoint text: origin, size, base64 root.
func checkpointRoot(text string) (string, int64, tlog.Hash) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) < 3 {
		fail("checkpoint has %d lines", len(lines))
	}
	n, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || strconv.FormatInt(n, 10) != lines[1] {
		fail("checkpoint size %q", lines[1])
	}
	return lines[0], n, hash64(lines[2])
}

// cosignatureOK checks a C2SP tlog-cosignature/v1 line by hand: Go's note
// package predates signature type 0x04.
func cosignatureOK(n *note.Note, vkey string) (bool, uint64) {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		fail("witness key %q", vkey)
	}
	name := parts[0]
	material, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(material) != 33 || material[0] != 0x04 {
		fail("witness key %q is not an Ed25519 cosigner key (type 0x04)", vkey)
	}
	pub := ed25519.PublicKey(material[1:])
	idInput := append([]byte(name+"\n"), material...)
	sum := sha256.Sum256(idInput)
	id := binary.BigEndian.Uint32(sum[:4])
	if fmt.Sprintf("%08x", id) != parts[1] {
		fail("witness key ID %s does not match (computed %08x)", parts[1], id)
	}
	for _, s := range append(append([]note.Signature{}, n.Sigs...), n.UnverifiedSigs...) {
		if s.Name != name || s.Hash != id {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(s.Base64)
		if err != nil || len(raw) != 4+8+64 {
			fail("cosignature by %s is malformed", name)
		}
		ts := binary.BigEndian.Uint64(raw[4:12])
		msg := fmt.Sprintf("cosignature/v1\ntime %d\n%s", ts, n.Text)
		return ed25519.Verify(pub, []byte(msg), raw[12:]), ts
	}
	return false, 0
}

// httpTiles reads C2SP tlog-tiles from a server: Go names a tile
// tile/8/L/N (and entry bundles tile/8/data/N); C2SP drops the height.
type httpTiles struct {
	base    string
	fetched int
}

func c2spPath(t tlog.Tile) string {
	p := t.Path()
	if t.L < 0 {
		return strings.Replace(p, "tile/8/data/", "tile/entries/", 1)
	}
	return strings.Replace(p, "tile/8/", "tile/", 1)
}

func (h *httpTiles) get(path string) ([]byte, error) {
	resp, err := http.Get(h.base + "/" + path)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("GET /%s: HTTP %d: %s", path, resp.StatusCode, body)
	}
	h.fetched++
	return body, nil
}

func (h *httpTiles) Height() int { return 8 }

func (h *httpTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(tiles))
	for i, t := range tiles {
		b, err := h.get(c2spPath(t))
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

func (h *httpTiles) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

// checkServer opens the server's checkpoint and reads its tree through tiles.
func checkServer(in *input, verifier note.Verifier) {
	if verifier == nil {
		fail("server without log_vkey")
	}
	h := &httpTiles{base: strings.TrimSuffix(in.Server, "/")}
	msg, err := h.get("checkpoint")
	if err != nil {
		fail("%v", err)
	}
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		fail("note.Open of the served checkpoint: %v", err)
	}
	origin, size, root := checkpointRoot(n.Text)
	fmt.Printf("ok: Go note.Open verifies the checkpoint served by kifu serve: %s at size %d\n", origin, size)
	// Extension lines (C2SP tlog-checkpoint) are kept in the note's text
	// and do not disturb the tree head: kifu's names the map root.
	for _, l := range strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")[3:] {
		fmt.Printf("ok: the served checkpoint carries the extension line %q\n", l)
	}
	tree := tlog.Tree{N: size, Hash: root}
	reader := tlog.TileHashReader(tree, h)
	got, err := tlog.TreeHash(size, reader)
	if err != nil || got != root {
		fail("tlog.TreeHash over the served tiles: %v (%s, checkpoint %s)", err, got, root)
	}
	proved := 0
	for _, p := range in.Inclusion {
		if p.TreeSize != size || p.Leaf == nil {
			continue
		}
		mine, err := tlog.ProveRecord(size, p.LeafIndex, reader)
		if err != nil {
			fail("tlog.ProveRecord(%d) over the served tiles: %v", p.LeafIndex, err)
		}
		if fmt.Sprint(mine) != fmt.Sprint(tlog.RecordProof(hashes64(p.Hashes))) {
			fail("the server's inclusion proof of leaf %d differs from Go's from its tiles", p.LeafIndex)
		}
		proved++
	}
	for _, p := range in.Consistency {
		if p.NewSize != size {
			continue
		}
		mine, err := tlog.ProveTree(size, p.OldSize, reader)
		if err != nil {
			fail("tlog.ProveTree(%d, %d) over the served tiles: %v", size, p.OldSize, err)
		}
		if fmt.Sprint(mine) != fmt.Sprint(tlog.TreeProof(hashes64(p.Hashes))) {
			fail("the server's consistency proof %d -> %d differs from Go's from its tiles", p.OldSize, size)
		}
		proved++
	}
	entries := int64(0)
	for k := int64(0); k*256 < size; k++ {
		w := size - k*256
		if w > 256 {
			w = 256
		}
		data, err := h.get(c2spPath(tlog.Tile{H: 8, L: -1, N: k, W: int(w)}))
		if err != nil {
			fail("%v", err)
		}
		for i := int64(0); i < w; i++ {
			if len(data) < 2 {
				fail("entry bundle %d ends early", k)
			}
			l := int(binary.BigEndian.Uint16(data[:2]))
			if len(data) < 2+l {
				fail("entry bundle %d ends early", k)
			}
			leaf := data[2 : 2+l]
			data = data[2+l:]
			idx := k*256 + i
			hs, err := reader.ReadHashes([]int64{tlog.StoredHashIndex(0, idx)})
			if err != nil {
				fail("leaf hash %d: %v", idx, err)
			}
			if tlog.RecordHash(leaf) != hs[0] {
				fail("served entry %d does not hash to the tree's leaf %d", idx, idx)
			}
			entries++
		}
		if len(data) != 0 {
			fail("entry bundle %d has bytes after its %d entries", k, w)
		}
	}
	fmt.Printf("ok: Go tlog.TileHashReader reads %d served tiles; %d entries hash to their leaves; %d served proofs equal Go's\n", h.fetched, entries, proved)
}

func main() {
	if len(os.Args) != 2 {
		fail("usage: sumdb_check FILE.json")
	}
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail("%v", err)
	}
	var in input
	if err := json.Unmarshal(raw, &in); err != nil {
		fail("%s: %v", os.Args[1], err)
	}
	roots := map[int64]tlog.Hash{}

	tree := &memTree{}
	for _, l := range in.Leaves {
		tree.add(unhex(l))
	}
	if len(in.Leaves) > 0 {
		for n := int64(1); n <= tree.size; n++ {
			roots[n] = tree.root(n)
		}
		for _, r := range in.Roots {
			if roots[r.Size] != hash64(r.Root) {
				fail("root of size %d: kifu %s, Go tlog %s", r.Size, r.Root, roots[r.Size])
			}
		}
		fmt.Printf("ok: %d leaves; Go tlog.TreeHash agrees with %d roots\n", tree.size, len(in.Roots))
	}

	var verifier note.Verifier
	if in.LogVkey != "" {
		verifier, err = note.NewVerifier(in.LogVkey)
		if err != nil {
			fail("note.NewVerifier(%q): %v", in.LogVkey, err)
		}
	}
	for _, msg := range []string{in.Checkpoint, in.CosignedCheckpoint} {
		if msg == "" {
			continue
		}
		if verifier == nil {
			fail("a checkpoint without log_vkey")
		}
		n, err := note.Open([]byte(msg), note.VerifierList(verifier))
		if err != nil {
			fail("note.Open: %v", err)
		}
		origin, size, root := checkpointRoot(n.Text)
		if origin != verifier.Name() {
			fail("origin %q differs from the key name %q", origin, verifier.Name())
		}
		if old, ok := roots[size]; ok && old != root {
			fail("checkpoint root of size %d is %s, the leaves give %s", size, root, old)
		}
		roots[size] = root
		fmt.Printf("ok: Go note.Open verifies the checkpoint of %s at size %d, signed by %s\n", origin, size, in.LogVkey)
		if msg == in.CosignedCheckpoint && in.WitnessVkey != "" {
			ok, ts := cosignatureOK(n, in.WitnessVkey)
			if !ok {
				fail("the cosignature by %s does not verify", in.WitnessVkey)
			}
			fmt.Printf("ok: cosignature/v1 by %s at time %d verifies (crypto/ed25519)\n", in.WitnessVkey, ts)
		}
	}

	if in.Server != "" {
		checkServer(&in, verifier)
		// The served checkpoint's root checks the proofs below.
		msg, _ := (&httpTiles{base: strings.TrimSuffix(in.Server, "/")}).get("checkpoint")
		if n, err := note.Open(msg, note.VerifierList(verifier)); err == nil {
			_, size, root := checkpointRoot(n.Text)
			roots[size] = root
		}
	}

	for _, p := range in.Inclusion {
		th, ok := roots[p.TreeSize]
		if !ok {
			fail("no root for tree size %d", p.TreeSize)
		}
		var leaf tlog.Hash
		if p.Leaf != nil {
			leaf = tlog.RecordHash(unhex(*p.Leaf))
		} else if p.LeafIndex < int64(len(in.Leaves)) {
			leaf = tlog.RecordHash(unhex(in.Leaves[p.LeafIndex]))
		} else {
			fail("no leaf for index %d", p.LeafIndex)
		}
		if err := tlog.CheckRecord(tlog.RecordProof(hashes64(p.Hashes)), p.TreeSize, th, p.LeafIndex, leaf); err != nil {
			fail("tlog.CheckRecord(leaf %d, size %d): %v", p.LeafIndex, p.TreeSize, err)
		}
		if len(in.Leaves) > 0 && p.TreeSize <= tree.size {
			mine, err := tlog.ProveRecord(p.TreeSize, p.LeafIndex, tree)
			if err != nil || fmt.Sprint(mine) != fmt.Sprint(tlog.RecordProof(hashes64(p.Hashes))) {
				fail("Go's own proof for leaf %d of %d differs from kifu's", p.LeafIndex, p.TreeSize)
			}
		}
	}
	if len(in.Inclusion) > 0 {
		fmt.Printf("ok: Go tlog.CheckRecord accepts %d inclusion proofs\n", len(in.Inclusion))
	}

	for _, p := range in.Consistency {
		oldRoot, ok1 := roots[p.OldSize]
		newRoot, ok2 := roots[p.NewSize]
		if !ok1 || !ok2 {
			fail("no roots for sizes %d and %d", p.OldSize, p.NewSize)
		}
		if err := tlog.CheckTree(tlog.TreeProof(hashes64(p.Hashes)), p.NewSize, newRoot, p.OldSize, oldRoot); err != nil {
			fail("tlog.CheckTree(%d -> %d): %v", p.OldSize, p.NewSize, err)
		}
	}
	if len(in.Consistency) > 0 {
		fmt.Printf("ok: Go tlog.CheckTree accepts %d consistency proofs\n", len(in.Consistency))
	}

	if len(in.Tiles) > 0 {
		tt := &memTree{}
		for i := int64(0); i < in.TilesTreeSize; i++ {
			var b [4]byte
			binary.BigEndian.PutUint32(b[:], uint32(i))
			tt.add(b[:])
		}
		for _, t := range in.Tiles {
			gt := tlog.Tile{H: 8, L: t.Level, N: t.Index, W: t.Width}
			// Go writes tile/8/L/N; C2SP tlog-tiles drops the height: tile/L/N.
			if strings.Replace(gt.Path(), "tile/8/", "tile/", 1) != t.Path {
				fail("tile path %q, Go's is %q", t.Path, gt.Path())
			}
			data, err := tlog.ReadTileData(gt, tt)
			if err != nil {
				fail("ReadTileData(%s): %v", t.Path, err)
			}
			if hex.EncodeToString(data) != t.Data {
				fail("tile %s differs from Go's", t.Path)
			}
		}
		fmt.Printf("ok: %d tiles equal Go's tlog.ReadTileData for a tree of %d\n", len(in.Tiles), in.TilesTreeSize)
	}
}
