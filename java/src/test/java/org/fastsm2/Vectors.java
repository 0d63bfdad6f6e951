// SPDX-License-Identifier: Apache-2.0
package org.fastsm2;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The repository's tests/vectors files (gbt32918-examples.txt,
 *  sm4-examples.txt; the directory from the system property
 *  fastsm2.vectors, set by the pom). */
final class Vectors {
    private Vectors() {}

    /** section -> list of (key, value) in file order. */
    static Map<String, List<String[]>> load() throws IOException {
        return load("gbt32918-examples.txt");
    }

    /** A file of tests/vectors, as load(). */
    static Map<String, List<String[]>> load(String file) throws IOException {
        String dir = System.getProperty("fastsm2.vectors", "../tests/vectors");
        Path p = Paths.get(dir, file);
        Map<String, List<String[]>> out = new LinkedHashMap<>();
        String sec = "";
        for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
            line = line.trim();
            if (line.isEmpty() || line.startsWith("#")) continue;
            if (line.startsWith("[")) {
                sec = line.substring(1, line.length() - 1);
                out.put(sec, new ArrayList<>());
                continue;
            }
            int eq = line.indexOf('=');
            out.get(sec).add(new String[] {line.substring(0, eq).trim(), line.substring(eq + 1).trim()});
        }
        return out;
    }

    static String get(List<String[]> sec, String key) {
        for (String[] kv : sec) if (kv[0].equals(key)) return kv[1];
        throw new IllegalArgumentException("no " + key);
    }

    static byte[] hex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return b;
    }
}
