package search

import "encoding/binary"

// A chunk filter says, for each chunk of a file's lower-cased text, which 4-byte grams may
// start in it: a Bloom filter of chunkFilterBits bits a chunk of chunkBytes bytes, one hash
// a gram. The content cache keeps one beside each file's lower-cased copy, and a literal's
// occurrences are looked for only where a chunk may hold all of its grams (with the next
// chunk's, for an occurrence that starts near a chunk's end): a file the content index
// names as a candidate but which holds no occurrence (useState: 80 such files of corpus.sh
// full, and no file holding it) is mostly not scanned at all.

const (
	// minChunkedBytes: a smaller file gets no filter (it is scanned whole quickly, and its
	// filter would outweigh its text).
	minChunkedBytes = 4 * chunkBytes
	chunkBytes      = 4096
	chunkFilterBits = 4096
	chunkWords      = chunkFilterBits / 64
)

// chunkFilter holds chunkWords words a chunk.
type chunkFilter []uint64

// gramBit is the bit of the 4-byte gram g in a chunk's filter.
func gramBit(g uint32) uint32 { return (g * 0x9E3779B1) >> (32 - 12) }

// newChunkFilter builds the filter of lower.
func newChunkFilter(lower []byte) chunkFilter {
	chunks := (len(lower) + chunkBytes - 1) / chunkBytes
	f := make(chunkFilter, chunks*chunkWords)
	for i := 0; i+4 <= len(lower); i++ {
		b := gramBit(binary.LittleEndian.Uint32(lower[i:]))
		f[(i/chunkBytes)*chunkWords+int(b>>6)] |= 1 << (b & 63)
	}
	return f
}

// needleBits returns the filter bits of needle's grams (nil for a needle shorter than a
// gram, which no filter can rule out).
func needleBits(needle []byte) []uint32 {
	var bits []uint32
	for i := 0; i+4 <= len(needle); i++ {
		bits = append(bits, gramBit(binary.LittleEndian.Uint32(needle[i:])))
	}
	return bits
}

// mayStart reports whether an occurrence of a needle whose grams have bits may start in
// chunk c: every gram of it starts in c or in the next chunk (the needle is shorter than a
// chunk), so each bit is set in one of the two.
func (f chunkFilter) mayStart(c int, bits []uint32) bool {
	at := c * chunkWords
	next := at + chunkWords
	for _, b := range bits {
		w, m := int(b>>6), uint64(1)<<(b&63)
		if f[at+w]&m == 0 && (next >= len(f) || f[next+w]&m == 0) {
			return false
		}
	}
	return true
}

// indexChunked returns the offset of the first occurrence of needle in lower at or after
// from, as indexLower does, looking only in the chunks f says may hold one.
func indexChunked(lower, needle []byte, at int, from int, f chunkFilter, bits []uint32) int {
	n := len(needle)
	for c := from / chunkBytes; c*chunkBytes < len(lower); c++ {
		if !f.mayStart(c, bits) {
			continue
		}
		start := max(from, c*chunkBytes)
		end := min(len(lower), (c+1)*chunkBytes+n-1) // an occurrence starting in c ends by here
		if i := indexLower(lower[start:end], needle, at); i >= 0 {
			return start + i
		}
	}
	return -1
}
