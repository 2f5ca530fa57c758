package dev.cpx.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cpx.api.Diagnostic;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** errno numbers, their words, and the exceptions they become (shared by the JNA and FFM engines). */
class ErrnoTest {

    @Test
    void wordsOfTheCommonOnes() {
        assertEquals("No space left on device", Errno.message(Errno.ENOSPC));
        assertEquals("Invalid cross-device link", Errno.message(Errno.EXDEV));
        assertEquals("Operation not supported", Errno.message(Errno.EOPNOTSUPP));
        assertEquals("Operation not supported", Errno.message(Errno.ENOTSUP));
        assertEquals("Disk quota exceeded", Errno.message(Errno.EDQUOT));
        assertEquals("Input/output error", Errno.message(Errno.EIO));
    }

    @Test
    void numbersGlibcHasNoWordsForReadAsGlibcSaysThem() {
        assertEquals("Wrong medium type", Errno.message(124));
        assertEquals("Unknown error 41", Errno.message(41));
        assertEquals("Success", Errno.message(0));
        assertEquals("Unknown error 4000", Errno.message(4000));
        assertEquals("Unknown error -3", Errno.message(-3));
    }

    @Test
    void onlyNotHereErrorsMeanTryTheNextMethod() {
        for (int e : new int[] {Errno.ENOSYS, Errno.EXDEV, Errno.EINVAL, Errno.EOPNOTSUPP, Errno.EPERM, Errno.EBADF, Errno.ETXTBSY}) {
            assertTrue(Errno.meansUnsupported(e), Errno.message(e));
        }
        for (int e : new int[] {Errno.EIO, Errno.ENOSPC, Errno.EDQUOT, Errno.EFBIG, Errno.EROFS, Errno.EINTR}) {
            assertFalse(Errno.meansUnsupported(e), Errno.message(e));
        }
    }

    @Test
    void aWrittenFilesCloseFailsWithItsWriteErrorButNotForAnInterruption() {
        Errno.writtenCloseFailed(Errno.EINTR);
        for (int errno : new int[] {Errno.EIO, Errno.ENOSPC, Errno.EDQUOT}) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> Errno.writtenCloseFailed(errno));
            assertEquals(Errno.message(errno), Diagnostic.reasonOf(e.getCause()), "errno " + errno);
        }
    }

    @Test
    void pathErrorsAreTheJdksExceptionsWithTheSameReasons() {
        Path p = Path.of("some/file");
        assertInstanceOf(NoSuchFileException.class, Errno.forPath(Errno.ENOENT, p));
        assertInstanceOf(AccessDeniedException.class, Errno.forPath(Errno.EACCES, p));
        assertInstanceOf(FileAlreadyExistsException.class, Errno.forPath(Errno.EEXIST, p));
        assertInstanceOf(NotDirectoryException.class, Errno.forPath(Errno.ENOTDIR, p));
        for (int e : new int[] {Errno.ENOENT, Errno.EACCES, Errno.EEXIST, Errno.ENOTDIR, Errno.EPERM, Errno.ENODATA,
                Errno.ENOSPC, Errno.ELOOP, Errno.ENAMETOOLONG, Errno.EROFS}) {
            assertEquals(Errno.message(e), Diagnostic.reasonOf(Errno.forPath(e, p)), "reason of errno " + e);
            assertEquals("some/file", Errno.forPath(e, p).getFile());
        }
        assertEquals("Input/output error", Diagnostic.reasonOf(Errno.copyFailure(Errno.EIO)));
    }
}
