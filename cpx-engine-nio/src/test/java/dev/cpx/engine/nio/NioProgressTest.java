package dev.cpx.engine.nio;

import dev.cpx.contract.ProgressContract;
import dev.cpx.spi.CopyEngine;

class NioProgressTest extends ProgressContract {
    @Override
    protected CopyEngine engine() {
        return new NioEngine();
    }
}
