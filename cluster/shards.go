package cluster

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ShardObject is the object name of version of repo's shard.
func ShardObject(repo, version string) string { return repo + "/" + version }

// shardFile reports whether the file at rel of an index directory belongs in its shard:
// the index's data, not its lock, socket or a run's leftovers.
func shardFile(rel string) bool {
	base := path.Base(rel)
	return !strings.HasSuffix(base, ".lock") && !strings.HasSuffix(base, ".sock") && !strings.HasPrefix(rel, "rebuild/")
}

// Upload writes the index directory dir as version of repo's shard and returns its object
// name and size. The version is a hash of the files, so an unchanged index uploads the same
// version.
func (c *Cluster) Upload(ctx context.Context, repo, dir string) (version, object string, size int64, err error) {
	h := sha256.New()
	tmp, err := os.CreateTemp("", "quarry-shard-*.tar")
	if err != nil {
		return "", "", 0, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	tw := tar.NewWriter(io.MultiWriter(tmp, h))
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !d.IsDir() && (!d.Type().IsRegular() || !shardFile(rel)) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		hdr := &tar.Header{Name: rel, Mode: 0o600, Size: info.Size(), Typeflag: tar.TypeReg}
		if d.IsDir() {
			hdr = &tar.Header{Name: rel + "/", Mode: 0o700, Typeflag: tar.TypeDir}
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(tw, f)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err != nil {
		return "", "", 0, fmt.Errorf("cluster: pack the shard of %s: %w", repo, err)
	}
	version = hex.EncodeToString(h.Sum(nil))[:16]
	object = ShardObject(repo, version)
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return "", "", 0, err
	}
	info, err := c.shards.Put(ctx, jetstream.ObjectMeta{Name: object, Description: "Quarry shard of " + repo}, tmp)
	if err != nil {
		return "", "", 0, fmt.Errorf("cluster: upload the shard of %s: %w", repo, err)
	}
	return version, object, int64(info.Size), nil
}

// DeleteObject removes a shard's object (a version no longer current).
func (c *Cluster) DeleteObject(ctx context.Context, object string) error {
	if err := c.shards.Delete(ctx, object); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		return fmt.Errorf("cluster: remove shard %s: %w", object, err)
	}
	return nil
}

// ErrTampered is wrapped by the error of a shard whose content is not the version it is
// named for (the version is the hash of the shard's content): it is never served.
var ErrTampered = errors.New("the shard's content is not its version")

// Download writes the shard object into dir, which must not exist; a name in the archive
// that would land outside dir (absolute, "..", a link) fails the download. The object's
// content must hash to version (its name's, Upload's), else the download fails with
// ErrTampered and nothing is left.
func (c *Cluster) Download(ctx context.Context, object, version, dir string) error {
	if path.Base(object) != version {
		return fmt.Errorf("cluster: shard %s: %w: it is not named for version %s", object, ErrTampered, version)
	}
	res, err := c.openObject(ctx, object)
	if err != nil {
		return fmt.Errorf("cluster: fetch shard %s: %w", object, err)
	}
	tmp := dir + ".part"
	if err := os.RemoveAll(tmp); err != nil {
		return err
	}
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return err
	}
	h := sha256.New()
	tee := io.TeeReader(res, h)
	err = untar(tee, tmp)
	if err == nil {
		_, err = io.Copy(io.Discard, tee) // the archive's end, hashed too
	}
	if err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("cluster: shard %s: %w", object, err)
	}
	if got := hex.EncodeToString(h.Sum(nil))[:16]; got != version {
		os.RemoveAll(tmp)
		return fmt.Errorf("cluster: shard %s: %w: its content hashes to %s", object, ErrTampered, got)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}

// openObject returns a reader of the shards bucket's object. It reads the object's chunks one
// direct get at a time (any live replica of the stream answers each, asked again while none
// does), not through ObjectStore.Get: that reads through a consumer, and bounds the whole
// download, however large, by the client's default timeout (5 s) when ctx has no deadline.
// After kill -9 of one of 3 nats-server 2.9 processes, up to half of new consumers' creations
// timed out, for as long as it was measured (150 s).
func (c *Cluster) openObject(ctx context.Context, object string) (io.Reader, error) {
	octx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	info, err := retry(octx, func(ctx context.Context) (*jetstream.ObjectInfo, error) { return c.shards.GetInfo(ctx, object) })
	if err != nil {
		return nil, err
	}
	st, err := c.stream(octx, "OBJ_"+ShardsBucket)
	if err != nil {
		return nil, err
	}
	return &objectReader{ctx: ctx, st: st, subject: "$O." + ShardsBucket + ".C." + info.NUID, next: 1, left: info.Chunks, size: info.Size}, nil
}

// objectReader reads an object's chunks in order, from the stream's sequence next on.
type objectReader struct {
	ctx     context.Context
	st      jetstream.Stream
	subject string // the object's chunks'
	next    uint64 // the stream sequence to look for the next chunk from
	left    uint32 // chunks not read yet
	size    uint64 // bytes not read yet
	buf     []byte // the unread rest of the last chunk
}

// chunkNotFoundTries bounds how often a chunk a replica does not hold yet is asked for
// again (a replica that lags behind the one that answered with the object's description).
const chunkNotFoundTries = 25

func (r *objectReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.left == 0 {
			if r.size != 0 {
				return 0, fmt.Errorf("the object ends %d bytes short", r.size)
			}
			return 0, io.EOF
		}
		var m *jetstream.RawStreamMsg
		var err error
		for try := 1; ; try++ {
			ctx, cancel := context.WithTimeout(r.ctx, opTimeout)
			m, err = retry(ctx, func(ctx context.Context) (*jetstream.RawStreamMsg, error) {
				return r.st.GetMsg(ctx, r.next, jetstream.WithGetMsgSubject(r.subject))
			})
			cancel()
			if !errors.Is(err, jetstream.ErrMsgNotFound) || try == chunkNotFoundTries {
				break
			}
			select {
			case <-r.ctx.Done():
				return 0, r.ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
		}
		if err != nil {
			return 0, fmt.Errorf("the object's chunk after sequence %d: %w", r.next-1, err)
		}
		if uint64(len(m.Data)) > r.size {
			return 0, fmt.Errorf("the object is longer than its description says")
		}
		r.next, r.left, r.size, r.buf = m.Sequence+1, r.left-1, r.size-uint64(len(m.Data)), m.Data
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// untar extracts r into dir, refusing any entry that is not a plain file or directory
// inside dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(hdr.Name)
		if !fs.ValidPath(name) || name == "." {
			return fmt.Errorf("entry %q is outside the shard's directory", hdr.Name)
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o700); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
				return err
			}
			f, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		default:
			return fmt.Errorf("entry %q is not a file or a directory", hdr.Name)
		}
	}
}
