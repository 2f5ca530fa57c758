package dev.cpx.example.throttled;

import dev.cpx.contract.EngineContract;
import dev.cpx.spi.CopyEngine;

/** Everything an engine must do (the contract from the cpx-api test-jar), at a rate that keeps the test quick. */
class ThrottledEngineContractTest extends EngineContract {
    @Override
    protected CopyEngine engine() {
        return new ThrottledEngine("2G");
    }
}
