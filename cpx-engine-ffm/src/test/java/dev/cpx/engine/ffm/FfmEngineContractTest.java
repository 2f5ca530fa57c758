package dev.cpx.engine.ffm;

import dev.cpx.contract.EngineContract;
import dev.cpx.spi.CopyEngine;
import org.junit.jupiter.api.BeforeEach;

/** Everything every engine must do, proven for the FFM engine (on JDK 22 and later). */
class FfmEngineContractTest extends EngineContract {

    @BeforeEach
    void onJdk22() {
        OnJdk22.assume();
    }

    @Override
    protected CopyEngine engine() {
        return new FfmEngine();
    }

    @Override
    protected boolean clones() {
        return true;
    }
}
