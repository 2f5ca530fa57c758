package dev.cpx.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * What a terminal shows after receiving some text: enough of a terminal to check that the progress
 * line, drawn with carriage returns and erased with spaces, never garbles the lines printed around
 * it. It knows carriage return, newline and printable characters; any other control character
 * (an escape sequence, say) is an error, since cpx draws with none.
 */
final class Screen {

    private Screen() {
    }

    /** The lines on the screen, trailing spaces removed; the last one is where the cursor is. */
    static List<String> render(String text) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        int col = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\r') {
                col = 0;
            } else if (c == '\n') {
                lines.add(strip(line));
                line.setLength(0);
                col = 0;
            } else if (c < 0x20 || c == 0x7f) {
                throw new AssertionError("control character " + (int) c + " at " + i + " in " + text);
            } else {
                while (line.length() < col) {
                    line.append(' ');
                }
                if (col < line.length()) {
                    line.setCharAt(col, c);
                } else {
                    line.append(c);
                }
                col++;
            }
        }
        lines.add(strip(line));
        return lines;
    }

    private static String strip(StringBuilder sb) {
        return sb.toString().stripTrailing();
    }
}
