package dev.cpx.engine.natives;

import dev.cpx.contract.EngineContract;
import dev.cpx.spi.CopyEngine;

/** Everything every engine must do, proven for the native engine. */
class NativeEngineContractTest extends EngineContract {
    @Override
    protected CopyEngine engine() {
        return new NativeEngine();
    }

    @Override
    protected boolean clones() {
        return true;
    }
}
