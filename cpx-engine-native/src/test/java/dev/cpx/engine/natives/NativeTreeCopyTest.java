package dev.cpx.engine.natives;

import dev.cpx.contract.TreeCopyContract;
import dev.cpx.spi.CopyEngine;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Whole tree copies through the scheduler with the native engine (and its extras, found by the
 * service loader). Two contract tests whose premise fails on this machine are skipped with the
 * reason, see {@link ContractPremises}.
 */
@ExtendWith(ContractPremises.class)
class NativeTreeCopyTest extends TreeCopyContract {
    @Override
    protected CopyEngine engine() {
        return new NativeEngine();
    }
}
