package dev.cpx.engine.ffm;

import dev.cpx.contract.TreeCopyContract;
import dev.cpx.spi.CopyEngine;
import org.junit.jupiter.api.BeforeEach;

/** Whole tree copies through the scheduler with the FFM engine and its extras (found by the service loader, preferred to JNA's). */
class FfmTreeCopyTest extends TreeCopyContract {

    @BeforeEach
    void onJdk22() {
        OnJdk22.assume();
    }

    @Override
    protected CopyEngine engine() {
        return new FfmEngine();
    }
}
