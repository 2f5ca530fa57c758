package dev.cpx.engine.natives;

import dev.cpx.contract.TreeCopyContract;
import dev.cpx.spi.CopyEngine;

/** Whole tree copies through the scheduler with the native engine (and its extras, found by the service loader). */
class NativeTreeCopyTest extends TreeCopyContract {
    @Override
    protected CopyEngine engine() {
        return new NativeEngine();
    }
}
