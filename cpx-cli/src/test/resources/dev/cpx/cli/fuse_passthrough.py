#!/usr/bin/python3
"""A FUSE pass-through file system over BACKING, mounted at MOUNT (FuseFileSystem, for the tests).

As NFS, CIFS and many FUSE file systems, it has no rename that refuses to replace (the kernel
answers renameat2(RENAME_NOREPLACE) with EINVAL), and the close of a file written under a name
holding "close-fails" reports ENOSPC, as NFS reports a write error (quota, a full server) at close.
Usage: fuse_passthrough.py BACKING MOUNT (in the foreground, until unmounted)."""
import errno, os, sys
try:
    from fusepy import FUSE, FuseOSError, Operations  # Debian's python3-fusepy
except ImportError:
    from fuse import FUSE, FuseOSError, Operations

class Passthrough(Operations):
    def __init__(self, root):
        self.root = root
    def _p(self, path):
        return os.path.join(self.root, path.lstrip('/'))
    def getattr(self, path, fh=None):
        st = os.lstat(self._p(path))
        return {k: getattr(st, k) for k in ('st_mode', 'st_nlink', 'st_uid', 'st_gid', 'st_size',
                                            'st_atime', 'st_mtime', 'st_ctime')}
    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self._p(path))
    def mkdir(self, path, mode):
        os.mkdir(self._p(path), mode)
    def rmdir(self, path):
        os.rmdir(self._p(path))
    def symlink(self, target, source):
        os.symlink(source, self._p(target))
    def readlink(self, path):
        return os.readlink(self._p(path))
    def link(self, target, source):
        os.link(self._p(source), self._p(target))
    def unlink(self, path):
        os.unlink(self._p(path))
    def rename(self, old, new):
        os.rename(self._p(old), self._p(new))
    def chmod(self, path, mode):
        os.chmod(self._p(path), mode)  # (never called on a symbolic link)
    def chown(self, path, uid, gid):
        os.chown(self._p(path), uid, gid, follow_symlinks=False)
    def utimens(self, path, times=None):
        os.utime(self._p(path), times, follow_symlinks=False)
    def truncate(self, path, length, fh=None):
        os.truncate(self._p(path), length)
    def create(self, path, mode, fi=None):
        return os.open(self._p(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    def open(self, path, flags):
        return os.open(self._p(path), flags & ~(os.O_CREAT | os.O_EXCL))
    def read(self, path, size, offset, fh):
        return os.pread(fh, size, offset)
    def write(self, path, data, offset, fh):
        return os.pwrite(fh, data, offset)
    def flush(self, path, fh):
        if 'close-fails' in path:
            raise FuseOSError(errno.ENOSPC)
        return 0
    def release(self, path, fh):
        os.close(fh)
        return 0
    def statfs(self, path):
        st = os.statvfs(self._p(path))
        return {k: getattr(st, k) for k in ('f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail',
                                            'f_ffree', 'f_files', 'f_flag', 'f_frsize', 'f_namemax')}

if __name__ == '__main__':
    FUSE(Passthrough(sys.argv[1]), sys.argv[2], foreground=True, nothreads=True, default_permissions=False)
