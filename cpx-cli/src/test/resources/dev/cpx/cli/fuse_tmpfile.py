#!/usr/bin/python3
"""A FUSE pass-through file system over BACKING, mounted at MOUNT, that speaks the kernel's protocol
itself (no libfuse), for the tests (FuseFileSystem).

It answers FUSE_TMPFILE, which Debian's libfuse 2 and fusepy cannot: a file can be made unnamed
(open with O_TMPFILE) and named afterwards (linkat), as on a local file system, and still have its
close fail: as fuse_passthrough.py's, the close (FLUSH) of a file whose name holds "close-fails"
reports ENOSPC, as NFS reports a write error (quota, a full server) at close. Unlike that one it
renames without replacing (RENAME_NOREPLACE) and keeps extended attributes, as a local file system.
Each unnamed file it names is said on standard output ("named an unnamed file: NAME").

One thread; names are bytes; nothing is cached by the kernel (every time-out 0). Each node is a
backing inode, by its last known name, or by a descriptor while it has none (a file made unnamed).
Usage: fuse_tmpfile.py BACKING MOUNT (in the foreground, until unmounted); FUSE_TMPFILE_DEBUG=1 in
the environment says each request and error on standard error."""
import ctypes, errno, os, stat, struct, sys, time

LOOKUP, FORGET, GETATTR, SETATTR, READLINK, SYMLINK = 1, 2, 3, 4, 5, 6
MKNOD, MKDIR, UNLINK, RMDIR, RENAME, LINK, OPEN, READ, WRITE, STATFS, RELEASE = 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18
FSYNC, SETXATTR, GETXATTR, LISTXATTR, REMOVEXATTR, FLUSH, INIT = 20, 21, 22, 23, 24, 25, 26
OPENDIR, READDIR, RELEASEDIR, FSYNCDIR, ACCESS, CREATE, INTERRUPT, DESTROY = 27, 28, 29, 30, 34, 35, 36, 38
BATCH_FORGET, RENAME2, TMPFILE = 42, 45, 51
FUSE_BIG_WRITES, FUSE_MAX_PAGES = 1 << 5, 1 << 22
FATTR_MODE, FATTR_UID, FATTR_GID, FATTR_SIZE, FATTR_ATIME, FATTR_MTIME, FATTR_FH = 1, 2, 4, 8, 16, 32, 64
FATTR_ATIME_NOW, FATTR_MTIME_NOW = 128, 256
MAX_WRITE = 128 * 1024

libc = ctypes.CDLL(None, use_errno=True)
libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
AT_FDCWD, AT_SYMLINK_FOLLOW = -100, 0x400
libc.linkat.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
DEBUG = os.environ.get('FUSE_TMPFILE_DEBUG') == '1'


class Node:
    def __init__(self, path, fd=None):
        self.path = path  # bytes, None while the file has no name
        self.fd = fd      # a descriptor of an unnamed file (O_TMPFILE), else None
        self.lookups = 0


class FileSystem:
    def __init__(self, backing, dev):
        self.dev = dev
        self.root_ino = os.lstat(backing).st_ino
        self.nodes = {1: Node(backing)}
        self.handles = {}  # fh -> [descriptor, nodeid]
        self.dirs = {}     # fh -> listing
        self.next_fh = 1

    # -- nodes ---------------------------------------------------------------------------------
    def nodeid(self, st):
        return 1 if st.st_ino == self.root_ino else st.st_ino + 1

    def node(self, nid):
        n = self.nodes.get(nid)
        if n is None:
            raise OSError(errno.ESTALE, 'no such node')
        return n

    def remember(self, st, path, fd=None):
        """The node of the backing inode st, now known by path: one lookup more (an entry reply)."""
        nid = self.nodeid(st)
        n = self.nodes.get(nid)
        if n is None:
            n = self.nodes[nid] = Node(path, fd)
        else:
            if path is not None:
                n.path = path
            if fd is not None:
                n.fd = fd
        n.lookups += 1
        return nid

    def forget(self, nid, count):
        n = self.nodes.get(nid)
        if n is None or nid == 1:
            return
        n.lookups -= count
        if n.lookups <= 0:
            if n.fd is not None:
                os.close(n.fd)
            del self.nodes[nid]

    def where(self, n):
        """A path the backing inode can be reached by (its descriptor's while it has no name)."""
        if n.path is not None:
            return n.path
        if n.fd is not None:
            return b'/proc/self/fd/%d' % n.fd
        raise OSError(errno.ENOENT, 'no name')

    def child(self, parent, name):
        if name in (b'', b'.', b'..') or b'/' in name:
            raise OSError(errno.EINVAL, 'bad name')
        return self.node(parent).path + b'/' + name

    def renamed(self, old, new):
        for n in self.nodes.values():
            if n.path == old:
                n.path = new
            elif n.path is not None and n.path.startswith(old + b'/'):
                n.path = new + n.path[len(old):]

    def unlinked(self, path):
        for n in self.nodes.values():
            if n.path == path:
                n.path = None

    # -- replies ---------------------------------------------------------------------------------
    @staticmethod
    def attr(st):
        def split(ns):
            return ns // 1000000000, ns % 1000000000
        a, an = split(st.st_atime_ns)
        m, mn = split(st.st_mtime_ns)
        c, cn = split(st.st_ctime_ns)
        return struct.pack('<QQQQQQIIIIIIIIII', st.st_ino, st.st_size, st.st_blocks, a, m, c, an, mn, cn,
                           st.st_mode, st.st_nlink, st.st_uid, st.st_gid, st.st_rdev & 0xffffffff,
                           st.st_blksize, 0)

    def entry(self, st, path, fd=None):
        nid = self.remember(st, path, fd)
        return struct.pack('<QQQQII', nid, 0, 0, 0, 0, 0) + self.attr(st)

    def attr_out(self, st):
        return struct.pack('<QII', 0, 0, 0) + self.attr(st)

    def open_out(self, fd, nid):
        fh = self.next_fh
        self.next_fh += 1
        self.handles[fh] = [fd, nid]
        return struct.pack('<QII', fh, 0, 0)

    def owned(self, path, uid, gid, fd=None):
        """Made by the caller: the caller's owner, and its group unless the directory passes its own on."""
        parent = os.lstat(os.path.dirname(path)) if path is not None else None
        if parent is not None and parent.st_mode & stat.S_ISGID:
            gid = -1
        if fd is not None:
            os.fchown(fd, uid, gid)
        else:
            os.lchown(path, uid, gid)

    # -- requests ----------------------------------------------------------------------------------
    def handle(self, opcode, nid, uid, gid, body):
        if opcode == INIT:
            major, minor, readahead, flags = struct.unpack_from('<IIII', body)
            return struct.pack('<IIIIHHIIHHI7I', 7, min(minor, 38), readahead, FUSE_BIG_WRITES | FUSE_MAX_PAGES,
                               16, 12, MAX_WRITE, 1, MAX_WRITE // 4096, 0, 0, *([0] * 7))
        if opcode == LOOKUP:
            path = self.child(nid, body.rstrip(b'\0'))
            return self.entry(os.lstat(path), path)
        if opcode == GETATTR:
            flags, _, fh = struct.unpack_from('<IIQ', body)
            if flags & 1 and fh in self.handles:
                return self.attr_out(os.fstat(self.handles[fh][0]))
            n = self.node(nid)
            return self.attr_out(os.fstat(n.fd) if n.path is None and n.fd is not None else os.lstat(self.where(n)))
        if opcode == SETATTR:
            return self.setattr(nid, body)
        if opcode == READLINK:
            return os.readlink(self.where(self.node(nid)))
        if opcode == SYMLINK:
            name, target = body.split(b'\0')[:2]
            path = self.child(nid, name)
            os.symlink(target, path)
            self.owned(path, uid, gid)
            return self.entry(os.lstat(path), path)
        if opcode == MKNOD:
            mode, rdev, _, _ = struct.unpack_from('<IIII', body)
            path = self.child(nid, body[16:].rstrip(b'\0'))
            os.mknod(path, mode, rdev)
            self.owned(path, uid, gid)
            return self.entry(os.lstat(path), path)
        if opcode == MKDIR:
            mode, _ = struct.unpack_from('<II', body)
            path = self.child(nid, body[8:].rstrip(b'\0'))
            os.mkdir(path, mode)
            self.owned(path, uid, gid)
            return self.entry(os.lstat(path), path)
        if opcode in (UNLINK, RMDIR):
            path = self.child(nid, body.rstrip(b'\0'))
            (os.unlink if opcode == UNLINK else os.rmdir)(path)
            self.unlinked(path)
            return b''
        if opcode in (RENAME, RENAME2):
            if opcode == RENAME:
                (newdir,), flags, names = struct.unpack_from('<Q', body), 0, body[8:]
            else:
                newdir, flags, _ = struct.unpack_from('<QII', body)
                names = body[16:]
            old, new = names.split(b'\0')[:2]
            old, new = self.child(nid, old), self.child(newdir, new)
            if libc.renameat2(AT_FDCWD, old, AT_FDCWD, new, flags) != 0:
                e = ctypes.get_errno()
                raise OSError(e, os.strerror(e))
            self.unlinked(new)
            self.renamed(old, new)
            return b''
        if opcode == LINK:
            (old,) = struct.unpack_from('<Q', body)
            path = self.child(nid, body[8:].rstrip(b'\0'))
            n = self.node(old)
            if n.path is None:
                # An unnamed file named: linkat(AT_SYMLINK_FOLLOW) of its descriptor (os.link would
                # call link(2), which links the /proc entry itself).
                if libc.linkat(AT_FDCWD, self.where(n), AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0:
                    e = ctypes.get_errno()
                    raise OSError(e, os.strerror(e))
                # Said on standard output, so that a test can tell that this way was taken.
                print('named an unnamed file: %s' % os.fsdecode(os.path.basename(path)), flush=True)
            else:
                os.link(n.path, path, follow_symlinks=False)
            return self.entry(os.lstat(path), path)
        if opcode == OPEN:
            flags, _ = struct.unpack_from('<II', body)
            flags &= ~(os.O_CREAT | os.O_EXCL | os.O_NOCTTY | os.O_TRUNC | os.O_APPEND)
            return self.open_out(os.open(self.where(self.node(nid)), flags), nid)
        if opcode == READ:
            fh, offset, size = struct.unpack_from('<QQI', body)
            return os.pread(self.handles[fh][0], size, offset)
        if opcode == WRITE:
            fh, offset, size = struct.unpack_from('<QQI', body)
            written = os.pwrite(self.handles[fh][0], body[40:40 + size], offset)
            return struct.pack('<II', written, 0)
        if opcode == STATFS:
            s = os.statvfs(self.nodes[1].path)
            return struct.pack('<QQQQQIIII6I', s.f_blocks, s.f_bfree, s.f_bavail, s.f_files, s.f_ffree,
                               s.f_bsize, s.f_namemax, s.f_frsize, 0, *([0] * 6))
        if opcode == RELEASE:
            (fh,) = struct.unpack_from('<Q', body)
            os.close(self.handles.pop(fh)[0])
            return b''
        if opcode == FLUSH:
            (fh,) = struct.unpack_from('<Q', body)
            n = self.nodes.get(self.handles[fh][1])
            if n is not None and n.path is not None and b'close-fails' in os.path.basename(n.path):
                raise OSError(errno.ENOSPC, 'close fails')
            return b''
        if opcode in (FSYNC, FSYNCDIR):
            fh, = struct.unpack_from('<Q', body)
            if opcode == FSYNC:
                os.fsync(self.handles[fh][0])
            return b''
        if opcode == SETXATTR:
            size, flags = struct.unpack_from('<II', body)
            name, rest = body[8:].split(b'\0', 1)
            os.setxattr(self.where(self.node(nid)), name, rest[:size], flags, follow_symlinks=False)
            return b''
        if opcode in (GETXATTR, LISTXATTR):
            (size,) = struct.unpack_from('<I', body)
            path = self.where(self.node(nid))
            if opcode == GETXATTR:
                value = os.getxattr(path, body[8:].rstrip(b'\0'), follow_symlinks=False)
            else:
                value = b''.join(os.fsencode(x) + b'\0' for x in os.listxattr(path, follow_symlinks=False))
            if size == 0:
                return struct.pack('<II', len(value), 0)
            if len(value) > size:
                raise OSError(errno.ERANGE, 'too small')
            return value
        if opcode == REMOVEXATTR:
            os.removexattr(self.where(self.node(nid)), body.rstrip(b'\0'), follow_symlinks=False)
            return b''
        if opcode == OPENDIR:
            path = self.node(nid).path
            listing = [(b'.', os.lstat(path).st_ino, stat.S_IFDIR), (b'..', os.lstat(path + b'/..').st_ino, stat.S_IFDIR)]
            with os.scandir(path) as it:
                for e in it:
                    listing.append((e.name, e.inode(), stat.S_IFMT(e.stat(follow_symlinks=False).st_mode)))
            fh = self.next_fh
            self.next_fh += 1
            self.dirs[fh] = listing
            return struct.pack('<QII', fh, 0, 0)
        if opcode == READDIR:
            fh, offset, size = struct.unpack_from('<QQI', body)
            out = b''
            listing = self.dirs[fh]
            for i in range(offset, len(listing)):
                name, ino, fmt = listing[i]
                d = struct.pack('<QQII', ino, i + 1, len(name), fmt >> 12) + name
                d += b'\0' * (-len(d) % 8)
                if len(out) + len(d) > size:
                    break
                out += d
            return out
        if opcode == RELEASEDIR:
            (fh,) = struct.unpack_from('<Q', body)
            self.dirs.pop(fh, None)
            return b''
        if opcode in (CREATE, TMPFILE):
            flags, mode, _, _ = struct.unpack_from('<IIII', body)
            flags &= ~os.O_NOCTTY
            if opcode == CREATE:
                path = self.child(nid, body[16:].rstrip(b'\0'))
                fd = os.open(path, flags | os.O_CREAT, mode)
                self.owned(path, uid, gid, fd)
                st = os.fstat(fd)
                return self.entry(st, path) + self.open_out(fd, self.nodeid(st))
            parent = self.node(nid).path
            fd = os.open(parent, (flags & ~(os.O_CREAT | os.O_EXCL | os.O_ACCMODE)) | os.O_TMPFILE | os.O_RDWR, mode)
            os.fchown(fd, uid, -1 if os.lstat(parent).st_mode & stat.S_ISGID else gid)
            st = os.fstat(fd)
            return self.entry(st, None, os.dup(fd)) + self.open_out(fd, self.nodeid(st))
        raise OSError(errno.ENOSYS, 'not here')

    def setattr(self, nid, body):
        valid, _, fh, size, _, atime, mtime, _, atimens, mtimens, _, mode, _, uid, gid, _ = \
            struct.unpack_from('<IIQQQQQQIIIIIIII', body)
        n = self.node(nid)
        fd = self.handles[fh][0] if valid & FATTR_FH and fh in self.handles else \
            (n.fd if n.path is None else None)
        target = fd if fd is not None else n.path
        if valid & FATTR_MODE:
            os.chmod(target, stat.S_IMODE(mode))
        if valid & (FATTR_UID | FATTR_GID):
            u = uid if valid & FATTR_UID else -1
            g = gid if valid & FATTR_GID else -1
            if fd is not None:
                os.fchown(fd, u, g)
            else:
                os.lchown(target, u, g)
        if valid & FATTR_SIZE:
            os.truncate(target, size)
        if valid & (FATTR_ATIME | FATTR_MTIME | FATTR_ATIME_NOW | FATTR_MTIME_NOW):
            st = os.fstat(fd) if fd is not None else os.lstat(target)
            now = None
            a = st.st_atime_ns
            m = st.st_mtime_ns
            if valid & (FATTR_ATIME_NOW | FATTR_MTIME_NOW):
                now = time.time_ns()
            if valid & FATTR_ATIME_NOW:
                a = now
            elif valid & FATTR_ATIME:
                a = atime * 1000000000 + atimens
            if valid & FATTR_MTIME_NOW:
                m = now
            elif valid & FATTR_MTIME:
                m = mtime * 1000000000 + mtimens
            if fd is not None:
                os.utime(fd, ns=(a, m))
            else:
                os.utime(target, ns=(a, m), follow_symlinks=False)
        return self.attr_out(os.fstat(fd) if fd is not None else os.lstat(target))

    def serve(self):
        while True:
            try:
                request = os.read(self.dev, MAX_WRITE + 4096)
            except OSError as e:
                if e.errno in (errno.ENOENT, errno.EINTR, errno.EAGAIN):
                    continue  # an interrupted request
                if e.errno == errno.ENODEV:
                    return  # unmounted
                raise
            length, opcode, unique, nid, uid, gid, pid = struct.unpack_from('<IIQQIII', request)
            body = request[40:length]
            if opcode == FORGET:
                self.forget(nid, struct.unpack_from('<Q', body)[0])
                continue
            if opcode == BATCH_FORGET:
                (count,) = struct.unpack_from('<I', body)
                for i in range(count):
                    self.forget(*struct.unpack_from('<QQ', body, 8 + 16 * i))
                continue
            if opcode == INTERRUPT:
                continue
            if DEBUG:
                print('request %d node %d %r' % (opcode, nid, body[:80]), file=sys.stderr, flush=True)
            try:
                reply, error = self.handle(opcode, nid, uid, gid, body), 0
            except OSError as e:
                reply, error = b'', -(e.errno or errno.EIO)
            except (KeyError, struct.error, ValueError) as e:
                print('fuse_tmpfile: opcode %d: %r' % (opcode, e), file=sys.stderr, flush=True)
                reply, error = b'', -errno.EIO
            if DEBUG and error:
                print('  error %d' % error, file=sys.stderr, flush=True)
            try:
                os.write(self.dev, struct.pack('<IiQ', 16 + len(reply), error, unique) + reply)
            except OSError as e:
                if e.errno != errno.ENOENT:  # the request was interrupted meanwhile
                    raise
            if opcode == DESTROY:
                return


def main():
    backing, mount = (os.fsencode(os.path.abspath(a)) for a in sys.argv[1:3])
    os.umask(0)  # modes come from the kernel with the caller's umask applied
    dev = os.open('/dev/fuse', os.O_RDWR)
    options = b'fd=%d,rootmode=%o,user_id=0,group_id=0,allow_other,default_permissions' % (
        dev, stat.S_IFMT(os.lstat(backing).st_mode))
    if libc.mount(b'cpx-test', mount, b'fuse.cpx-tmpfile', 0, options) != 0:
        e = ctypes.get_errno()
        sys.exit('fuse_tmpfile: cannot mount %s: %s' % (os.fsdecode(mount), os.strerror(e)))
    FileSystem(backing, dev).serve()


if __name__ == '__main__':
    main()
