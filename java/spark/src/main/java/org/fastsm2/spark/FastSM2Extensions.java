// SPDX-License-Identifier: Apache-2.0
package org.fastsm2.spark;

import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.SparkSessionExtensionsProvider;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import scala.Tuple3;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * The SQL route with no code: every session of the application gets
 * sm2_verify, sm2_sign, sm3, sm4_encrypt, sm4_decrypt and try_sm4_decrypt
 * ({@link FastSM2Functions}) with
 * <pre>
 *   spark-submit --jars fastsm2-jca.jar,fastsm2-spark.jar \
 *     --conf spark.sql.extensions=org.fastsm2.spark.FastSM2Extensions ...
 * </pre>
 */
public final class FastSM2Extensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit>
        implements SparkSessionExtensionsProvider {
    @Override
    public BoxedUnit apply(SparkSessionExtensions ext) {
        for (String name : FastSM2Functions.NAMES)
            ext.injectFunction(new Tuple3<>(FunctionIdentifier.apply(name), FastSM2Functions.info(name),
                    FastSM2Functions.builder(name)));
        return BoxedUnit.UNIT;
    }
}
