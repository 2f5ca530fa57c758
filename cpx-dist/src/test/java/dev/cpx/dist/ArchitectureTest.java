package dev.cpx.dist;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering the project's modules promise, checked on the compiled main classes of every
 * module (this module sees them all): the command line and the engines never reach into the
 * scheduler, an engine sees nothing of cpx but the SPI, and no two packages depend on each other.
 */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        // Main classes only: not this module's tests, nor the contract tests of cpx-api's test-jar.
        ImportOption mainOnly = location -> !location.contains("/test-classes/") && !location.contains("-tests.jar");
        classes = new ClassFileImporter().withImportOption(mainOnly).importPackages("dev.cpx");
    }

    @Test
    void theCommandLineUsesTheApiNotTheScheduler() {
        noClasses().that().resideInAPackage("dev.cpx.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.cpx.core..")
                .because("the CLI is a client of dev.cpx.api like any embedding program")
                .check(classes);
    }

    @Test
    void enginesSeeOnlyTheSpi() {
        noClasses().that().resideInAnyPackage("dev.cpx.engine..", "dev.cpx.example.throttled..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.cpx.core..", "dev.cpx.api..", "dev.cpx.cli..")
                .because("an engine moves bytes through the SPI (dev.cpx.spi and its support package) and knows nothing else")
                .check(classes);
    }

    @Test
    void theContractKnowsNothingOfItsImplementations() {
        noClasses().that().resideInAPackage("dev.cpx.spi..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.cpx.core..", "dev.cpx.api..", "dev.cpx.cli..",
                        "dev.cpx.engine..")
                .check(classes);
    }

    @Test
    void theApiReachesTheSchedulerOnlyThroughItsEntryPoint() {
        noClasses().that().resideInAPackage("dev.cpx.api..").and().doNotHaveFullyQualifiedName(dev.cpx.api.Cpx.class.getName())
                .should().dependOnClassesThat().resideInAPackage("dev.cpx.core..")
                .because("the API's types are the scheduler's vocabulary, not its clients")
                .check(classes);
        noClasses().that().haveFullyQualifiedName(dev.cpx.api.Cpx.class.getName())
                .should().dependOnClassesThat().resideInAPackage("dev.cpx.core.*..")
                .because("Cpx starts a run through dev.cpx.core.Scheduler, a plan's steps through dev.cpx.core.Plans,"
                        + " and knows nothing else of the scheduler")
                .check(classes);
    }

    /**
     * No cycles between packages. The edges left out: the library's entry point starts the scheduler
     * ({@code Cpx} calls {@code Scheduler.start}, and a plan's steps in {@code Plans}), while the
     * scheduler works in the API's types; the rule above keeps those edges the only ones.
     */
    @Test
    void noPackagesDependOnEachOtherInACycle() {
        slices().matching("dev.cpx.(**)").should().beFreeOfCycles()
                .ignoreDependency(dev.cpx.api.Cpx.class, dev.cpx.core.Scheduler.class)
                .ignoreDependency(dev.cpx.api.Cpx.class, dev.cpx.core.Plans.class)
                .check(classes);
    }
}
