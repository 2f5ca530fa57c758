package dev.cpx.engine.nio;

import dev.cpx.contract.EngineContract;
import dev.cpx.spi.CopyEngine;

class NioEngineContractTest extends EngineContract {
    @Override
    protected CopyEngine engine() {
        return new NioEngine();
    }
}
