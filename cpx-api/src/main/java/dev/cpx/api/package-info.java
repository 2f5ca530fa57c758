/**
 * cpx as a library: {@link dev.cpx.api.Cpx} copies files and trees as GNU {@code cp} does, in
 * parallel, with {@link dev.cpx.api.CopyOptions} (immutable, GNU's defaults), telling a
 * {@link dev.cpx.api.CopyListener} what became of each entry ({@link dev.cpx.api.FileOutcome}) and
 * returning a {@link dev.cpx.api.CopySummary}. Failures of single files are outcomes, never
 * exceptions. {@link dev.cpx.api.EngineRegistry} finds the engines.
 *
 * <p>Stable: records here may gain components only through their builders, and interfaces gain
 * methods only with defaults.
 */
package dev.cpx.api;
