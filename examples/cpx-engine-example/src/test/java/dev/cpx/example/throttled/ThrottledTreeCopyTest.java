package dev.cpx.example.throttled;

import dev.cpx.contract.TreeCopyContract;
import dev.cpx.spi.CopyEngine;

/** Whole copies through the scheduler with this engine (the tree contract from the cpx-api test-jar). */
class ThrottledTreeCopyTest extends TreeCopyContract {
    @Override
    protected CopyEngine engine() {
        return new ThrottledEngine("2G");
    }
}
