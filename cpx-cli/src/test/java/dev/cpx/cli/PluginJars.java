package dev.cpx.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Builds engine plugin jars at test time: compiles Java sources against cpx-api and packs them with a service file. */
final class PluginJars {

    private PluginJars() {
    }

    /**
     * Compiles {@code sources} (class name to source text) and writes {@code jar} with them and a
     * {@code META-INF/services/dev.cpx.spi.CopyEngine} naming {@code providers}.
     */
    static Path build(Path work, Path jar, java.util.Map<String, String> sources, List<String> providers) throws IOException {
        Path src = Files.createDirectories(work.resolve("src"));
        Path classes = Files.createDirectories(work.resolve("classes"));
        List<String> files = new java.util.ArrayList<>();
        for (var e : sources.entrySet()) {
            Path f = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            files.add(f.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new java.util.ArrayList<>(List.of("--release", "17", "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path")));
        args.addAll(files);
        int rc = javac.run(null, null, null, args.toArray(String[]::new));
        if (rc != 0) {
            throw new IOException("javac failed for the test plugin");
        }
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jos = new JarOutputStream(out);
                Stream<Path> walk = Files.walk(classes)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                jos.putNextEntry(new JarEntry(classes.relativize(p).toString()));
                jos.write(Files.readAllBytes(p));
                jos.closeEntry();
            }
            jos.putNextEntry(new JarEntry("META-INF/services/dev.cpx.spi.CopyEngine"));
            jos.write((String.join("\n", providers) + "\n").getBytes(StandardCharsets.UTF_8));
            jos.closeEntry();
        }
        return jar;
    }
}
