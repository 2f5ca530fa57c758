package dev.cpx.engine.nio;

import dev.cpx.contract.TreeCopyContract;
import dev.cpx.spi.CopyEngine;

class NioTreeCopyTest extends TreeCopyContract {
    @Override
    protected CopyEngine engine() {
        return new NioEngine();
    }
}
