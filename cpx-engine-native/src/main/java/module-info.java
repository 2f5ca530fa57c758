/**
 * The native copy engine ({@code --engine=native}: copy_file_range, sendfile, FICLONE, SEEK_DATA
 * through JNA) and the native file system support; exports nothing, provides both.
 */
module dev.cpx.engine.natives {
    requires dev.cpx.api;
    requires com.sun.jna;

    provides dev.cpx.spi.CopyEngine with dev.cpx.engine.natives.NativeEngine;
    provides dev.cpx.spi.PosixExtras with dev.cpx.engine.natives.NativeExtras;
}
