package dev.cpx.engine.natives;

import dev.cpx.contract.ProgressContract;
import dev.cpx.spi.CopyEngine;

class NativeProgressTest extends ProgressContract {
    @Override
    protected CopyEngine engine() {
        return new NativeEngine();
    }
}
