package dev.cpx.cli;

import java.util.logging.LogManager;

/**
 * java.util.logging without a configuration, the JVM's log manager for cpx (cpx.jvm-args): JNA makes a
 * logger when it loads, which made the JDK read and apply its logging configuration on the thread
 * that prepares the native calls while the copy waited for it (measured: 6 ms of a 1,000-file copy);
 * and cpx's standard error is GNU cp's, where no library's log line belongs. To see JNA's log:
 * {@code CPX_JAVA_OPTS='-Djava.util.logging.manager=java.util.logging.LogManager
 * -Djava.util.logging.config.file=FILE'}.
 */
public final class QuietLogManager extends LogManager {

    @Override
    public void readConfiguration() {
        // Nothing to read: no handlers, the default levels.
    }
}
